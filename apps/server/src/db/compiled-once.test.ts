import { describe, expect, it } from 'vitest';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, type CompiledQuery } from 'kysely';
import { sql } from 'kysely';
import { CompiledOnce, keptInsert } from './compiled-once.js';

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

describe('keptInsert', () => {
  type Port = T['ports'];
  // Each call's own statement, compiled as the notification's statement is: the insert as a part of it.
  const statement = (rows: Array<Partial<Port>>, build: () => ReturnType<typeof insert>) => {
    const { sql: text, parameters } = sql`with new_ports as (${keptInsert('ports', rows, build)}) select 1`.compile(db);
    return { text, parameters };
  };
  const asKysely = (rows: Array<Partial<Port>>) => {
    const { sql: text, parameters } = sql`with new_ports as (${insert(rows)}) select 1`.compile(db);
    return { text, parameters };
  };
  const insert = (rows: Array<Partial<Port>>) => db.insertInto('ports').values(rows as Port[]).returning('id');

  it('writes what Kysely writes, with each call\'s values, building a shape once', () => {
    let built = 0;
    const counted = (rows: Array<Partial<Port>>) => () => { built++; return insert(rows); };
    const a = [{ id: 'p1', user_id: 'u1', status: 'active' }, { id: 'p2', user_id: 'u1', status: 'active' }];
    const b = [{ id: 'p3', user_id: 'u2', status: 'expired' }, { id: 'p4', user_id: 'u2', status: 'active' }];
    const first = statement(a, counted(a));
    const second = statement(b, counted(b));
    expect(built).toBe(1);
    expect(second.text).toBe(first.text);
    expect(second.parameters).toEqual(['p3', 'u2', 'expired', 'p4', 'u2', 'active']);
    expect(second).toEqual(asKysely(b));
  });

  it('a value left undefined (a column Kysely leaves out) is another shape, and rows unlike the first are built as they are', () => {
    statement([{ id: 'p1', user_id: 'u1', status: 'active' }], () => insert([{ id: 'p1', user_id: 'u1', status: 'active' }]));
    const without = [{ id: 'p2', user_id: 'u2', status: undefined }];
    expect(statement(without, () => insert(without))).toEqual(asKysely(without));
    const mixed = [{ id: 'p3', user_id: 'u3', status: 'active' }, { id: 'p4', status: 'active', user_id: 'u4' }];
    expect(statement(mixed, () => insert(mixed))).toEqual(asKysely(mixed));
  });

  it('refuses, at its first compile, a builder whose values are not the rows\' own', () => {
    // Three rows: a shape no other test compiled, so this is its first compile.
    const rows = ['p7', 'p8', 'p9'].map((id) => ({ id, user_id: 'u9', status: 'active' }));
    expect(() => statement(rows, () => insert(rows.map((r) => ({ ...r, status: 'other' }))))).toThrow(/not the ones given/);
  });
});

