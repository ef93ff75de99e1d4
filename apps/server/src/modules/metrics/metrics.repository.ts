import { sql } from 'kysely';
import type { Database } from '../../db/database.js';

/** One grouped count: its series (job, port, modem, payment), up to two labels and how many rows. */
export interface CountedRow { series: string; a: string; b: string; n: number }

/** What the gauges read from the database (scrape-counts.ts keeps the reading a few seconds). */
export class MetricsRepository {
  constructor(private readonly db: Database) {}

  /** The job queue, ports, modems and payments counted by one grouped statement. */
  async countRows(): Promise<CountedRow[]> {
    // One statement, one round trip; jobs use the partial index jobs_due (done_at is null).
    const { rows } = await sql<CountedRow>`
      select 'job' as series,
             case when run_at <= now() then 'due' when attempts > 0 then 'retrying' else 'scheduled' end as a,
             '' as b, count(*)::int as n
        from jobs where done_at is null group by 2
      union all
      select 'port', case when status = 'active' and suspended_at is not null then 'suspended' else status end, '', count(*)::int
        from ports group by 2
      union all
      select 'modem', health, '', count(*)::int from modems where not retired group by 2
      union all
      select 'payment', case when provider = 'crypto' then coalesce(coin, 'crypto') else provider end, status, count(*)::int
        from payment_orders group by 2, 3
      union all
      select 'payment', provider, status, count(*)::int from payments where provider = 'balance' group by 2, 3
    `.execute(this.db);
    return rows;
  }
}
