import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** What the dashboard reads of the customer's ports (a read model: the ports domain owns the table and its writes). */
export class DashboardRepository {
  constructor(private readonly db: Database) {}

  /** The customer's active ports (not past their term): how many, and the first 20 whose term ends within `days`. */
  async activePorts(userId: string, days: number): Promise<{ count: number; expiring: { id: string; name: string; default_number: number | null; expires_at: Date }[] }> {
    const active = this.db.selectFrom('ports').where('user_id', '=', userId).where('status', '=', 'active')
      .where('expires_at', '>', sql<Date>`now()`);
    const [count, expiring] = await Promise.all([
      active.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
      active.select(['id', 'name', 'default_number', 'expires_at'])
        .where('expires_at', '<=', sql<Date>`now() + make_interval(days => ${days})`)
        .orderBy('expires_at').limit(20).execute(),
    ]);
    return { count: Number(count.n), expiring };
  }
}
