import { TELEGRAM_DEFAULT_KINDS } from '@cellport/shared/schemas/telegram';
import { sql } from 'kysely';
import type { Database, Tx } from '../../db/database.js';

/** The settings row the console writes: the token sealed (never stored or shown in the clear), and the mode. */
export const TELEGRAM_SETTINGS_KEY = 'telegram';
export interface StoredTelegramSettings { token?: string; mode?: 'polling' | 'webhook' }

/**
 * Telegram's tables: the customers' linked chats and one-time link tokens, the bot's settings row, the poller's lease,
 * and the claim of each notification a chat is sent (`notifications.telegram`: pending → sent, once).
 */
export class TelegramRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  // ---- links

  async link(userId: string) {
    return this.db.selectFrom('telegram_links').select(['chat_name', 'kinds', 'created_at'])
      .where('user_id', '=', userId).executeTakeFirst();
  }

  /** Stores a new link token's hash; the customer's earlier unused tokens stop working. */
  async replaceLinkToken(userId: string, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.transaction(async (tx) => {
      await tx.deleteFrom('telegram_link_tokens').where('user_id', '=', userId).where('used_at', 'is', null).execute();
      await tx.insertInto('telegram_link_tokens').values({ token_hash: tokenHash, user_id: userId, expires_at: expiresAt }).execute();
    });
  }

  /** Unlinks; the chat that was linked, or undefined. */
  async deleteLink(userId: string): Promise<string | undefined> {
    return (await this.db.deleteFrom('telegram_links').where('user_id', '=', userId).returning('chat_id').executeTakeFirst())?.chat_id;
  }

  /** False when the customer has no linked chat. */
  async setKinds(userId: string, kinds: string[]): Promise<boolean> {
    const updated = await this.db.updateTable('telegram_links').set({ kinds: JSON.stringify(kinds) })
      .where('user_id', '=', userId).returning('user_id').executeTakeFirst();
    return Boolean(updated);
  }

  /** The customer a chat speaks for. */
  async userOfChat(chatId: string) {
    return this.db.selectFrom('telegram_links').innerJoin('users', 'users.id', 'telegram_links.user_id')
      .select(['users.id', 'users.language', 'users.is_active']).where('telegram_links.chat_id', '=', chatId).executeTakeFirst();
  }

  /** Takes a link token once (used_at set in the same statement that checks it); the customer it links, or undefined. */
  async takeLinkToken(tokenHash: string): Promise<string | undefined> {
    const taken = await this.db.updateTable('telegram_link_tokens').set({ used_at: sql`now()` })
      .where('token_hash', '=', tokenHash).where('used_at', 'is', null).where('expires_at', '>', sql<Date>`now()`)
      .returning('user_id').executeTakeFirst();
    return taken?.user_id;
  }

  /** Links the chat to the customer (a chat speaks for one account: linking it again moves it); their e-mail and language. */
  async linkChat(userId: string, chatId: string, chatName: string): Promise<{ email: string; language: string }> {
    return this.transaction(async (tx) => {
      await tx.deleteFrom('telegram_links').where('chat_id', '=', chatId).execute();
      await tx.insertInto('telegram_links').values({
        user_id: userId, chat_id: chatId, chat_name: chatName, kinds: JSON.stringify(TELEGRAM_DEFAULT_KINDS),
      }).onConflict((oc) => oc.column('user_id').doUpdateSet({
        chat_id: chatId, chat_name: chatName, created_at: sql`now()`,
      })).execute();
      return tx.selectFrom('users').select(['email', 'language']).where('id', '=', userId).executeTakeFirstOrThrow();
    });
  }

  async language(userId: string): Promise<string | undefined> {
    return (await this.db.selectFrom('users').select('language').where('id', '=', userId).executeTakeFirst())?.language;
  }

  // ---- the bot's settings and lease

  /** The console's settings row; with `tx`, locked for the rest of the transaction. */
  async settings(tx?: Tx): Promise<StoredTelegramSettings> {
    const query = (tx ?? this.db).selectFrom('settings').select('value').where('key', '=', TELEGRAM_SETTINGS_KEY);
    const row = await (tx ? query.forUpdate() : query).executeTakeFirst();
    return (row?.value ?? {}) as StoredTelegramSettings;
  }

  async saveSettings(tx: Tx, settings: StoredTelegramSettings, adminId: string): Promise<void> {
    const value = JSON.stringify(settings);
    await tx.insertInto('settings').values({ key: TELEGRAM_SETTINGS_KEY, value, updated_by: adminId })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_by: adminId, updated_at: new Date() }))
      .execute();
  }

  /** Takes the one-row poller lease (free, expired, or already this holder's) for `seconds`; true when held. */
  async takeLease(holder: string, seconds: number): Promise<boolean> {
    const held = await this.db.insertInto('telegram_poller')
      .values({ id: 1, holder, leased_until: sql<Date>`now() + make_interval(secs => ${seconds})` })
      .onConflict((oc) => oc.column('id').doUpdateSet({ holder, leased_until: sql<Date>`excluded.leased_until` })
        .where((eb) => eb.or([eb('telegram_poller.holder', '=', holder), eb('telegram_poller.leased_until', '<', sql<Date>`now()`)])))
      .returning('holder').executeTakeFirst();
    return Boolean(held);
  }

  async releaseLease(holder: string): Promise<void> {
    await this.db.deleteFrom('telegram_poller').where('holder', '=', holder).execute();
  }

  // ---- notifications sent to chats

  /** Claims a notification pending for Telegram (pending → sent): one instance wins it. */
  async claimNotification(notificationId: string) {
    return this.db.updateTable('notifications').set({ telegram: 'sent' })
      .where('id', '=', notificationId).where('telegram', '=', 'pending')
      .returning(['user_id', 'text_key', 'params']).executeTakeFirst();
  }

  /** The customer's linked chat, the kinds it wants and the customer's language, or undefined. */
  async chatOf(userId: string) {
    return this.db.selectFrom('telegram_links').innerJoin('users', 'users.id', 'telegram_links.user_id')
      .select(['telegram_links.chat_id', 'telegram_links.kinds', 'users.language', 'users.is_active'])
      .where('telegram_links.user_id', '=', userId).executeTakeFirst();
  }

  async markFailed(notificationId: string): Promise<void> {
    await this.db.updateTable('notifications').set({ telegram: 'failed' }).where('id', '=', notificationId).execute();
  }

  /** Notifications still pending for Telegram after `olderThanMs`, oldest first (at most 200). */
  async pending(olderThanMs: number): Promise<string[]> {
    const rows = await this.db.selectFrom('notifications').select('id').where('telegram', '=', 'pending')
      .where('created_at', '<=', sql<Date>`now() - make_interval(secs => ${olderThanMs / 1000})`)
      .orderBy('created_at').limit(200).execute();
    return rows.map((r) => r.id);
  }
}
