import type { ColumnType, Generated } from 'kysely';

export interface CaptchaSolutionsTable {
  /** The challenge hash of a solved ALTCHA challenge. */
  challenge: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

export interface LoginFailuresTable {
  id: Generated<string>;
  /** The login as typed (lower-cased e-mail), whether or not such an account exists. */
  login: string;
  created_at: ColumnType<Date, Date | string | undefined, never>;
}

export interface AuthTables {
  captcha_solutions: CaptchaSolutionsTable;
  login_failures: LoginFailuresTable;
}
