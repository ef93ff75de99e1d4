import type { ColumnType, Generated } from 'kysely';

export interface NotificationsTable {
  id: Generated<string>;
  user_id: string;
  type: 'payment' | 'other';
  /** Key in the `notifications` locale namespace, with its params: the text can be re-rendered later. */
  text_key: string;
  params: ColumnType<Record<string, unknown>, string, string>;
  /** Rendered in the user's language when stored. */
  text: string;
  unread: Generated<boolean>;
  /** null: no e-mail; 'pending': to be mailed; 'sent': handed to the mailer. */
  email: ColumnType<'pending' | 'sent' | null, 'pending' | 'sent' | null | undefined, 'pending' | 'sent' | null>;
  /** Telegram (set by a trigger when a linked chat wants this key): 'pending' → 'sent' or 'failed' by one instance. */
  telegram: ColumnType<'pending' | 'sent' | 'failed' | null, never, 'pending' | 'sent' | 'failed' | null>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}
export interface NotificationsTables { notifications: NotificationsTable }
