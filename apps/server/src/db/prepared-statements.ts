import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/** Past this many distinct statements on one connection, new ones run unnamed (a bound on server memory). */
const MAX_NAMED_PER_CONNECTION = 1000;

/**
 * A pg pool for Kysely that runs every parameterized statement as a named prepared statement, so PostgreSQL
 * parses and plans each distinct SQL text once per connection instead of on every execution. Kysely sends the
 * same text for the same query shape, and planning was most of the server's time on hot paths (a purchase is a
 * dozen statements; listing ports joins six tables).
 * The name is a hash of the text, so equal texts share one statement and no two texts share a name.
 */
export function preparingPool(pool: Pool): PostgresPool {
  const wrappers = new WeakMap<PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (!wrapper) {
        wrapper = preparingClient(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
}

function preparingClient(client: PoolClient): PostgresPoolClient {
  const named = new Set<string>();
  function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query<R>(sqlOrCursor: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sqlOrCursor !== 'string') return client.query(sqlOrCursor as never) as PostgresCursor<R>;
    const values = parameters ? [...parameters] : [];
    const run = (config: string | { name: string; text: string; values: unknown[] }) =>
      (typeof config === 'string' ? client.query(config, values) : client.query(config)) as unknown as Promise<PostgresQueryResult<R>>;
    // Transaction control and other parameterless statements gain nothing from a name.
    if (!values.length) return run(sqlOrCursor);
    const name = statementName(sqlOrCursor);
    if (!named.has(name)) {
      if (named.size >= MAX_NAMED_PER_CONNECTION) return run(sqlOrCursor);
      named.add(name);
    }
    return run({ name, text: sqlOrCursor, values });
  }
  return { query, release: () => client.release() };
}

/** Names by SQL text, so the hash runs once per distinct text rather than once per query (a hot path). */
const names = new Map<string, string>();
const NAMES_KEPT = 5_000;

function statementName(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    name = `k${createHash('sha1').update(sql).digest('base64url')}`;
    if (names.size >= NAMES_KEPT) names.clear();
    names.set(sql, name);
  }
  return name;
}
