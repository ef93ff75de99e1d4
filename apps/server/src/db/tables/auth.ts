import type { ColumnType, Generated } from 'kysely';

export interface CaptchaSolutionsTable {
  /** The challenge hash of a solved ALTCHA challenge. */
  challenge: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

/** A solved captcha (issue 26): good for a few gated requests from the address that solved it, until it expires. */
export interface CaptchaPassesTable {
  /** The random id the browser's signed cookie carries. */
  id: string;
  address: string;
  uses_left: number;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

export interface LoginFailuresTable {
  id: Generated<string>;
  /** The login as typed (lower-cased e-mail), whether or not such an account exists. */
  login: string;
  /** The client address the attempt came from ('' for rows older than issue 26). */
  address: ColumnType<string, string | undefined, never>;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface AuthTables {
  captcha_solutions: CaptchaSolutionsTable;
  captcha_passes: CaptchaPassesTable;
  login_failures: LoginFailuresTable;
}
