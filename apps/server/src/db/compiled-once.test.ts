import { describe, expect, it } from 'vitest';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type CompiledQuery } from 'kysely';
import { sql } from 'kysely';
import { CompiledOnce } from './compiled-once.js';

interface T { ports: { id: string; user_id: string; status: string } }
const db = new Kysely<T>({
  dialect: {
    createAdapter: () => new PostgresAdapter(), createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k), createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** Records what was sent and answers with one row naming its parameters. */
function recorder() {
  const sent: CompiledQuery[] = [];
  return {
    sent,
    executeQuery: <R>(q: CompiledQuery<R>) => {
      sent.push(q);
      return Promise.resolve({ rows: [{ params: q.parameters } as R] });
    },
  };
}

const listing = (userId: string, ids: string[]) =>
  db.selectFrom('ports').select('id').where('user_id', '=', userId).where('status', '<>', 'released').where('id', 'in', ids);

describe('CompiledOnce', () => {
  it('builds a shape once and sends its text with each call\'s parameters', async () => {
    const cache = new CompiledOnce<number>();
    const on = recorder();
    let built = 0;
    const run = (userId: string, ids: string[]) => cache.rows(on, ids.length, [userId, 'released', ...ids], () => { built++; return listing(userId, ids); });
    await run('u1', ['a']);
    const second = await run('u2', ['b']);
    expect(built).toBe(1);
    expect(on.sent[1]!.sql).toBe(on.sent[0]!.sql);
    expect(second).toEqual([{ params: ['u2', 'released', 'b'] }]);
    await run('u3', ['c', 'd']);
    expect(built).toBe(2);
    expect(on.sent[2]!.sql).toContain('in ($3, $4)');
  });

  it('fails at the first compile when the builder\'s parameters are not the ones given', async () => {
    const cache = new CompiledOnce<number>();
    await expect(cache.rows(recorder(), 1, ['released', 'u1', 'a'], () => listing('u1', ['a']))).rejects.toThrow(/not the ones given/);
  });

  it('past maxKeys, a new shape is compiled on every call (nothing more is kept)', async () => {
    const cache = new CompiledOnce<number>(1);
    const on = recorder();
    let built = 0;
    const run = (ids: string[]) => cache.rows(on, ids.length, ['u', 'released', ...ids], () => { built++; return listing('u', ids); });
    await run(['a']);
    await run(['a', 'b']);
    await run(['a', 'b']);
    await run(['a']);
    expect(built).toBe(3);
  });

  it('a fragment is the kept text with this call\'s values, numbered by the statement it is part of', async () => {
    const cache = new CompiledOnce<number>();
    let built = 0;
    const part = (userId: string, ids: string[]) => cache.fragment(ids.length, [userId, 'released', ...ids], () => { built++; return listing(userId, ids); });
    const wrap = (userId: string, ids: string[]) => sql`with first as (select ${'before'}::text) select * from (${part(userId, ids)}) as l where l.id <> ${'after'}`.compile(db);
    const one = wrap('u1', ['a', 'b']);
    const two = wrap('u2', ['c', 'd']);
    expect(built).toBe(1);
    expect(two.sql).toBe(one.sql);
    expect(two.sql).toContain('"user_id" = $2 and "status" <> $3 and "id" in ($4, $5)) as l where l.id <> $6');
    expect(two.parameters).toEqual(['before', 'u2', 'released', 'c', 'd', 'after']);
    // The same text as the whole query sends (rows), so one kept shape serves both.
    expect(await cache.rows(recorder(), 2, ['u3', 'released', 'e', 'f'], () => { built++; return listing('u3', ['e', 'f']); })).toEqual([{ params: ['u3', 'released', 'e', 'f'] }]);
    expect(built).toBe(1);
  });
});
