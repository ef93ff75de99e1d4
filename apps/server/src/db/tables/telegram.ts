import type { ColumnType } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/** One-time /start tokens (issue 16, item 2): the SHA-256 of the token, short-lived, used once. */
export interface TelegramLinkTokensTable {
  token_hash: string;
  user_id: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: CreatedAt;
}

/** A customer's linked chat and the notification keys (locales' notifications.json) they want in it. */
export interface TelegramLinksTable {
  user_id: string;
  chat_id: string;
  chat_name: ColumnType<string, string | undefined, string>;
  kinds: ColumnType<string[], string | undefined, string>;
  /** When the chat was (last) linked. */
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** The long-polling lease: one row, the instance holding it until `leased_until`. */
export interface TelegramPollerTable {
  id: number;
  holder: string;
  leased_until: ColumnType<Date, Date | string, Date | string>;
}

export interface TelegramTables {
  telegram_link_tokens: TelegramLinkTokensTable;
  telegram_links: TelegramLinksTable;
  telegram_poller: TelegramPollerTable;
}
