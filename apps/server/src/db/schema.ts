import type { AccountsTables } from './tables/accounts.js';
import type { AuthTables } from './tables/auth.js';

// The database as Kysely sees it: one interface per area in tables/, joined here.
export type DB = AccountsTables & AuthTables;
