import type { Language } from '@cellport/shared';
import { MINOR_UNITS } from '@cellport/shared/constants';
import type { Port } from '@cellport/shared/schemas/catalog';
import { microToDollars } from '@cellport/shared/schemas/payments';
import {
  TELEGRAM_DEFAULT_KINDS, TELEGRAM_LINK_TTL_MINUTES, type TelegramLink, type TelegramNotificationKind, type TelegramStatus,
} from '@cellport/shared/schemas/telegram';
import type { FastifyBaseLogger } from 'fastify';
import type { TelegramIncoming } from '../../integrations/telegram/telegram-gateway.js';
import { AppError } from '../../lib/app-error.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import { botText, errorText, languageOf } from './telegram-texts.js';
import type { TelegramRepository } from './telegram.repository.js';

/**
 * What the bot reads and does in other domains (the composition root passes theirs): the customer's ports as Your
 * Proxies lists them, their balances, and the rotation POST /modems/:id/rotate runs.
 */
export interface TelegramDeps {
  repo: TelegramRepository;
  ports: { list(userId: string, lng: Language): Promise<Port[]> };
  ledger: { balances(userId: string): Promise<{ usdt: bigint; btc: bigint }> };
  rotation: { rotateOwnPort(userId: string, portId: string): Promise<{ old_ip: string; new_ip: string }> };
  log: FastifyBaseLogger;
}

/** What the routes need to know of the running bot. */
export interface BotState { available: boolean; sandbox: boolean; username: string | null }

/**
 * Telegram for customers (issue 16, item 2): one-time links (the token's SHA-256 stored, used once, expiring), the
 * linked chat and its notification kinds, and the bot's answers: /start <token>, /proxies, /balance, /rotate <port>,
 * /help, each in the customer's language. /rotate calls the same RotationService as POST /modems/:id/rotate, with
 * its rules (active port, once a minute per port, one rotation per modem at a time).
 */
export class TelegramService {
  constructor(private readonly deps: TelegramDeps) {}

  async status(userId: string, bot: BotState): Promise<TelegramStatus> {
    const link = await this.deps.repo.link(userId);
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
    await this.deps.repo.replaceLinkToken(userId, hashToken(token), expiresAt);
    return { url: `https://t.me/${encodeURIComponent(botUsername)}?start=${token}`, expiresAt: expiresAt.toISOString() };
  }

  /** Unlinks; returns the chat that was linked (to tell it), or null. */
  async unlink(userId: string): Promise<{ chatId: string; language: Language } | null> {
    const chatId = await this.deps.repo.deleteLink(userId);
    if (!chatId) return null;
    return { chatId, language: languageOf(await this.deps.repo.language(userId)) };
  }

  async setKinds(userId: string, kinds: TelegramNotificationKind[]): Promise<void> {
    if (!await this.deps.repo.setKinds(userId, [...new Set(kinds)])) throw new AppError('NOT_FOUND', 404, 'Telegram is not linked. Link it on the Account page first.');
  }

  /** The bot's answer to one message. */
  async answer(message: TelegramIncoming): Promise<string | null> {
    const parsed = /^\/(\w+)(?:@\w+)?(?:\s+(.*))?$/s.exec(message.text.trim());
    const command = parsed?.[1]?.toLowerCase();
    const args = (parsed?.[2] ?? '').trim();
    if (command === 'start' && args) return this.start(message, args);
    const linked = await this.deps.repo.userOfChat(message.chatId);
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
    const userId = await this.deps.repo.takeLinkToken(hashToken(token));
    if (!userId) return botText(languageOf(message.languageCode), 'linkInvalid');
    // A chat speaks for one account: linking it again moves it.
    const user = await this.deps.repo.linkChat(userId, message.chatId, message.chatName);
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
}
