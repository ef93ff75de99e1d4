import { sql, type Kysely } from 'kysely';

// One naming style for job kinds (issue 29, item 2; jobs/job-kinds.ts): `<domain>.<verb>`. The crypto watcher's
// kinds were the only ones written with a dash; the rows already scheduled are renamed so they still find their
// handler. Their keys stay as they are (a key only has to be unique).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update jobs set kind = 'crypto.watch' where kind = 'crypto-watch';
    update jobs set kind = 'crypto.expire' where kind = 'crypto-expire';
  `.execute(db);
}
