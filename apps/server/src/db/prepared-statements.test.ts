import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { buildTestApp, describeOnPostgres, type TestApp } from '../../test/helpers.js';
import type { Tx } from '../db/database.js';
import { openDatabase } from './database.js';

// Protocol-level prepared statements exist only on a PostgreSQL server; PGlite runs in-process.
describeOnPostgres('prepared statements', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp(); });
  afterAll(async () => { await t.close(); });

  /** Runs `work` and reads the statements prepared on the same connection (one transaction holds one connection). */
  const preparedAfter = (work: (tx: Tx) => Promise<unknown>) =>
    t.ctx.db.transaction().execute(async (tx) => {
      await work(tx);
      const { rows } = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(tx);
      return rows;
    });

  it('a parameterized query is parsed once per connection and reused; each distinct text gets its own name', async () => {
    const rows = await preparedAfter(async (tx) => {
      for (let i = 0; i < 3; i++) await tx.selectFrom('users').select('id').where('email', '=', `nobody-${i}@test.local`).execute();
      await tx.selectFrom('users').select('id').where('name', '=', 'x').execute();
    });
    const byEmail = rows.filter((r) => r.statement.includes('"email" = $1'));
    const byName = rows.filter((r) => r.statement.includes('"name" = $1'));
    expect(byEmail).toHaveLength(1);
    expect(byName).toHaveLength(1);
    expect(byEmail[0]!.name).not.toBe(byName[0]!.name);
  });

  it('statements without parameters (begin, commit) are not named', async () => {
    const rows = await preparedAfter(async (tx) => { await sql`select 42 as answer`.execute(tx); });
    expect(rows.some((r) => r.statement.includes('42'))).toBe(false);
  });

  it('DATABASE_PREPARED_STATEMENTS=false (a pooler that cannot keep them) names nothing', async () => {
    const { rows: [here] } = await sql<{ db: string }>`select current_database() as db`.execute(t.ctx.db);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${here!.db}`;
    const plain = await openDatabase({ databaseUrl: url.toString(), dataDir: '', poolSize: 1, preparedStatements: false });
    try {
      const rows = await plain.db.transaction().execute(async (tx) => {
        await tx.selectFrom('users').select('id').where('email', '=', 'unprepared@test.local').execute();
        return (await sql<{ name: string }>`select name from pg_prepared_statements`.execute(tx)).rows;
      });
      expect(rows).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  it('a failing statement leaves the connection usable and the same text still runs', async () => {
    const bad = () => t.ctx.db.selectFrom('users').select('id').where('id', '=', 'not-a-uuid').execute();
    await expect(bad()).rejects.toThrow();
    await expect(bad()).rejects.toThrow();
    expect(await t.ctx.db.selectFrom('users').select('id').where('email', '=', 'x@y.z').execute()).toEqual([]);
  });
});
