import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** Readiness asks the database one trivial question; this is the only code of health that touches it. */
export class HealthRepository {
  constructor(private readonly db: Database) {}

  /** Resolves when the database answers `select 1`, rejects when it does not. */
  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }
}
