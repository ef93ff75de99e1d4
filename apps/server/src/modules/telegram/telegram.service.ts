import type { Language } from '@cellport/shared';
import { MINOR_UNITS } from '@cellport/shared/constants';
import { microToDollars } from '@cellport/shared/schemas/payments';
import {
  TELEGRAM_DEFAULT_KINDS, TELEGRAM_LINK_TTL_MINUTES, type TelegramLink, type TelegramNotificationKind, type TelegramStatus,
} from '@cellport/shared/schemas/telegram';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';
import type { TelegramIncoming } from '../../integrations/telegram/telegram-gateway.js';
import { AppError } from '../../lib/app-error.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { PortsRepository, RotationService } from '../ports/index.js';
import { botText, errorText, languageOf } from './telegram-texts.js';

/** What the routes need to know of the running bot. */
export interface BotState { available: boolean; sandbox: boolean; username: string | null }

/**
 * Telegram for customers (issue 16, item 2): one-time links (the token's SHA-256 stored, used once, expiring), the
 * linked chat and its notification kinds, and the bot's answers: /start <token>, /proxies, /balance, /rotate <port>,
 * /help, each in the customer's language. /rotate calls the same RotationService as POST /modems/:id/rotate, with
 * its rules (active port, once a minute per port, one rotation per modem at a time).
 */
export class TelegramService {
  constructor(private readonly deps: {
    db: Database; ports: PortsRepository; ledger: LedgerService; rotation: RotationService; log: FastifyBaseLogger;
  }) {}

  async status(userId: string, bot: BotState): Promise<TelegramStatus> {
    const link = await this.deps.db.selectFrom('telegram_links').select(['chat_name', 'kinds', 'created_at'])
      .where('user_id', '=', userId).executeTakeFirst();
    return {
      available: bot.available, sandbox: bot.sandbox, botUsername: bot.username,
      linked: Boolean(link), chatName: link ? link.chat_name || null : null,
      linkedAt: link ? link.created_at.toISOString() : null,
      kinds: link ? link.kinds : [...TELEGRAM_DEFAULT_KINDS],
    };
  }

  /** A new deep link; the customer's earlier unused tokens stop working. */
  async createLink(userId: string, botUsername: string): Promise<TelegramLink> {
    const token = newToken(24);
    const expiresAt = new Date(Date.now() + TELEGRAM_LINK_TTL_MINUTES * 60_000);
    await this.deps.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('telegram_link_tokens').where('user_id', '=', userId).where('used_at', 'is', null).execute();
      await tx.insertInto('telegram_link_tokens').values({ token_hash: hashToken(token), user_id: userId, expires_at: expiresAt }).execute();
    });
    return { url: `https://t.me/${encodeURIComponent(botUsername)}?start=${token}`, expiresAt: expiresAt.toISOString() };
  }

  /** Unlinks; returns the chat that was linked (to tell it), or null. */
  async unlink(userId: string): Promise<{ chatId: string; language: Language } | null> {
    const row = await this.deps.db.deleteFrom('telegram_links').where('user_id', '=', userId).returning('chat_id').executeTakeFirst();
    if (!row) return null;
    return { chatId: row.chat_id, language: languageOf(await this.language(userId)) };
  }

  async setKinds(userId: string, kinds: TelegramNotificationKind[]): Promise<void> {
    const updated = await this.deps.db.updateTable('telegram_links').set({ kinds: JSON.stringify([...new Set(kinds)]) })
      .where('user_id', '=', userId).returning('user_id').executeTakeFirst();
    if (!updated) throw new AppError('NOT_FOUND', 404, 'Telegram is not linked. Link it on the Account page first.');
  }

  /** The bot's answer to one message. */
  async answer(message: TelegramIncoming): Promise<string | null> {
    const parsed = /^\/(\w+)(?:@\w+)?(?:\s+(.*))?$/s.exec(message.text.trim());
    const command = parsed?.[1]?.toLowerCase();
    const args = (parsed?.[2] ?? '').trim();
    if (command === 'start' && args) return this.start(message, args);
    const linked = await this.deps.db.selectFrom('telegram_links').innerJoin('users', 'users.id', 'telegram_links.user_id')
      .select(['users.id', 'users.language', 'users.is_active']).where('telegram_links.chat_id', '=', message.chatId).executeTakeFirst();
    if (!linked?.is_active) return botText(languageOf(message.languageCode), 'notLinked');
    const lng = languageOf(linked.language);
    switch (command) {
      case 'proxies': return this.proxies(linked.id, lng);
      case 'balance': return this.balance(linked.id, lng);
      case 'rotate': return this.rotate(linked.id, lng, args);
      default: return botText(lng, 'help');
    }
  }

  /** /start <token>: the token is taken once (used_at set in the same statement that checks it). */
  private async start(message: TelegramIncoming, token: string): Promise<string> {
    const db = this.deps.db;
    const taken = await db.updateTable('telegram_link_tokens').set({ used_at: sql`now()` })
      .where('token_hash', '=', hashToken(token)).where('used_at', 'is', null).where('expires_at', '>', sql<Date>`now()`)
      .returning('user_id').executeTakeFirst();
    if (!taken) return botText(languageOf(message.languageCode), 'linkInvalid');
    const user = await db.transaction().execute(async (tx) => {
      // A chat speaks for one account: linking it again moves it.
      await tx.deleteFrom('telegram_links').where('chat_id', '=', message.chatId).execute();
      await tx.insertInto('telegram_links').values({
        user_id: taken.user_id, chat_id: message.chatId, chat_name: message.chatName, kinds: JSON.stringify(TELEGRAM_DEFAULT_KINDS),
      }).onConflict((oc) => oc.column('user_id').doUpdateSet({
        chat_id: message.chatId, chat_name: message.chatName, created_at: sql`now()`,
      })).execute();
      return tx.selectFrom('users').select(['email', 'language']).where('id', '=', taken.user_id).executeTakeFirstOrThrow();
    });
    const lng = languageOf(user.language);
    return botText(lng, 'linked', { email: user.email, help: botText(lng, 'help') });
  }

  private async proxies(userId: string, lng: Language): Promise<string> {
    const ports = await this.deps.ports.list(userId, lng);
    if (!ports.length) return botText(lng, 'noProxies');
    const date = new Intl.DateTimeFormat(lng === 'cn' ? 'zh-CN' : lng, { dateStyle: 'medium' });
    return [botText(lng, 'proxiesTitle'), ...ports.map((p) => botText(lng, 'proxyLine', {
      name: p.modem_name, host: p.host, port: p.http_port, socksPort: p.socks_port, date: date.format(new Date(p.expiresAt)),
      status: p.status === 'expired' ? botText(lng, 'expired') : '',
    }))].join('\n');
  }

  private async balance(userId: string, lng: Language): Promise<string> {
    const b = await this.deps.ledger.balances(userId);
    const usdt = microToDollars(b.usdt);
    if (b.btc === 0n) return botText(lng, 'balance', { usdt });
    const btc = `${b.btc / MINOR_UNITS.btc}.${(b.btc % MINOR_UNITS.btc).toString().padStart(8, '0')}`;
    return botText(lng, 'balanceBtc', { usdt, btc });
  }

  /** /rotate <port>: the HTTP or SOCKS port number, or the port's name (as /proxies lists them). */
  private async rotate(userId: string, lng: Language, which: string): Promise<string> {
    if (!which) return botText(lng, 'rotateUsage');
    const ports = await this.deps.ports.list(userId, lng);
    const wanted = which.toLowerCase();
    const port = ports.find((p) => String(p.http_port) === which || String(p.socks_port) === which)
      ?? ports.find((p) => p.modem_name.toLowerCase() === wanted);
    if (!port) return botText(lng, 'rotateUnknown', { port: which.slice(0, 60) });
    try {
      const result = await this.deps.rotation.rotateOwnPort(userId, port._id);
      return botText(lng, result.new_ip === result.old_ip ? 'rotatedSame' : 'rotated', { name: port.modem_name, ip: result.new_ip });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const retryAfter = Number(err.details?.retryAfter ?? 0);
      return botText(lng, 'rotateFailed', { name: port.modem_name, reason: errorText(lng, err.code, { retryAfter }) });
    }
  }

  private async language(userId: string): Promise<string | undefined> {
    return (await this.deps.db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst())?.language;
  }
}
