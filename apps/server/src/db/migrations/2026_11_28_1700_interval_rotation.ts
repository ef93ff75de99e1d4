import { sql, type Kysely } from 'kysely';

// Automatic IP rotation by interval: the due time of the one pending rotation of a dedicated port (or of a shared
// modem, which rotates once for all its customers). A rotation job runs only if its due time is still the one
// recorded here, so changing the interval supersedes the pending job; null means no chain is running.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table ports add column rotation_due_at timestamptz;
    alter table modems add column rotation_due_at timestamptz;
    -- The planner looks only for chains that should run and do not: both sets stay small.
    create index ports_rotation_unplanned on ports(id)
      where rotation_due_at is null and rotation_interval > 0 and status = 'active' and not is_shared;
    create index modems_rotation_unplanned on modems(id)
      where rotation_due_at is null and rotation_interval > 0 and is_shared;
  `.execute(db);
}
