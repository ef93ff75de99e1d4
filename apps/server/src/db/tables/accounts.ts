import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: string;
  company_name: Generated<string>;
  password_hash: string;
  purpose: Generated<string>;
  website_wishlist: Generated<string>;
  language: Generated<string>;
  marketing_consent: Generated<boolean>;
  invite_token: string | null;
  role: Generated<'customer' | 'admin'>;
  is_active: Generated<boolean>;
  is_verified: Generated<boolean>;
  totp_secret: string | null;
  totp_pending_secret: string | null;
  /** The last TOTP time step accepted: a code of that step or earlier is refused (no reuse). */
  totp_last_step: bigint | null;
  /** Printed on invoices with company_name (issue 27, item 3). */
  billing_address: Generated<string>;
  vat_number: Generated<string>;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
}

export interface SessionsTable {
  /** sha256 of the cookie token; the token itself is never stored. */
  id: string;
  user_id: string;
  ip: Generated<string>;
  user_agent: Generated<string>;
  created_at: CreatedAt;
  last_seen_at: Generated<Date>;
  expires_at: Timestamp;
}

export interface UserTokensTable {
  id: Generated<string>;
  user_id: string;
  purpose: 'email_verify' | 'password_reset';
  token_hash: string;
  expires_at: Timestamp;
  used_at: Date | null;
  created_at: CreatedAt;
}

export interface MailOutboxTable {
  id: Generated<string>;
  to_email: string;
  subject: string;
  text: string;
  html: string;
  /** Set when an SMTP transport accepted it; null while only in the outbox. */
  sent_at: Date | null;
  error: string | null;
  created_at: CreatedAt;
  /** The notification this e-mail tells, when written with it (one e-mail per notification: a unique index). */
  notification_id: string | null;
  /** When one instance claimed it to hand to SMTP; null: written in a transaction, not yet claimed (mailer.ts). */
  handed_at: Date | null;
}

export interface AccountsTables {
  users: UsersTable;
  sessions: SessionsTable;
  user_tokens: UserTokensTable;
  mail_outbox: MailOutboxTable;
}
