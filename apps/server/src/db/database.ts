import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, PostgresDialect, type Dialect, type Driver, type LogEvent, type Transaction } from 'kysely';
import { pgListener } from './pg-listener.js';
import { preparingPool } from './prepared-statements.js';
import type { DB } from './schema.js';

export type Database = Kysely<DB>;
/** A transaction over the same schema: repositories and services take one to join the caller's unit of work. */
export type Tx = Transaction<DB>;

export interface DatabaseHandle {
  db: Database;
  /** 'postgres' when talking to a server; 'pglite' for the embedded single-connection database. */
  kind: 'postgres' | 'pglite';
  /**
   * Listen to a NOTIFY channel; PGlite supports it in-process too. On PostgreSQL the connection comes back when
   * lost, and `onResync` runs then: what was announced in the gap was missed (pg-listener.ts).
   */
  listen(channel: string, onPayload: (payload: string) => void, onResync?: () => void): Promise<() => Promise<void>>;
  /** Each statement's time and whether it failed (the metrics); one observer at a time, null to stop. */
  observeQueries(observer: QueryObserver | null): void;
  /** The connections now: open, idle, queries waiting for one, and the most there can be. */
  poolStats(): { total: number; idle: number; waiting: number; max: number };
  close(): Promise<void>;
}

export type QueryObserver = (ms: number, failed: boolean) => void;

/**
 * Kysely's log hook, handing each statement's duration to the observer. Kysely times a statement only when a log
 * is configured, so this costs two clock reads and a call per statement.
 */
function queryLog(): { log: (event: LogEvent) => void; observe(observer: QueryObserver | null): void } {
  let observer: QueryObserver | null = null;
  return {
    log: (event) => observer?.(event.queryDurationMillis, event.level === 'error'),
    observe: (next) => { observer = next; },
  };
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** Load a data directory dump (tests copy one migrated database instead of migrating each time). */
  loadDataDir?: Blob | File | undefined;
  /** Keep PGlite in memory (tests). */
  inMemory?: boolean;
  poolSize?: number;
  /** PostgreSQL: run parameterized statements as named prepared statements (default true; prepared-statements.ts). */
  preparedStatements?: boolean;
  /**
   * PostgreSQL: how long a query waits for a connection (a new one, or a free one from the pool) before it fails.
   * A database that is down or unreachable then costs a request this long and a 503, not a hang.
   */
  connectTimeoutMs?: number;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? 10, options.preparedStatements ?? true, options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS)
    : openPglite(options);
}

async function openPostgres(url: string, max: number, prepared: boolean, connectTimeoutMs: number): Promise<DatabaseHandle> {
  const pg = await import('pg');
  // bigint columns come back as strings from pg; our money code works with bigint, so parse them here once.
  pg.default.types.setTypeParser(20, (v) => BigInt(v));
  const pool = new pg.default.Pool({ connectionString: url, max, connectionTimeoutMillis: connectTimeoutMs, keepAlive: true });
  pool.on('error', () => {});
  // A connection lost while checked out (say between two statements of a transaction) emits 'error' on its client:
  // the statement fails by itself and the pool drops the client on release, but an 'error' nobody listens to would
  // end the process.
  pool.on('connect', (client) => { client.on('error', () => {}); });
  const queries = queryLog();
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: prepared ? preparingPool(pool) : pool }), log: queries.log });
  // LISTEN has a connection of its own, outside the request pool (pg-listener.ts says why).
  const listener = pgListener(async () => {
    const client = new pg.default.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs, keepAlive: true });
    // An error before the listener has attached its own handler (a failed connect) must not end the process.
    client.on('error', () => {});
    try {
      await client.connect();
    } catch (err) {
      void client.end().catch(() => {});
      throw err;
    }
    return client;
  });
  return {
    db,
    kind: 'postgres',
    listen: (channel, onPayload, onResync) => listener.listen(channel, onPayload, onResync),
    observeQueries: queries.observe,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
    async close() {
      listener.close();
      await db.destroy();
    },
  };
}

async function openPglite(options: DatabaseOptions): Promise<DatabaseHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  // pg_trgm: the trigram indexes of the console's searches (migration 2026_12_05_2300), as on PostgreSQL.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { PGliteDialect } = await import('./pglite-dialect.js');
  let dataDir: string | undefined;
  if (!options.inMemory) {
    dataDir = join(options.dataDir, 'pglite');
    mkdirSync(dataDir, { recursive: true });
  }
  const pglite = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    parsers: { 20: (v: string) => BigInt(v) },
    extensions: { pg_trgm },
  });
  // One connection, handed out in turn: counted as it is taken and given back, for the pool metrics.
  const use = { held: 0, waiting: 0 };
  const pgliteDialect = new PGliteDialect(pglite);
  const dialect: Dialect = {
    createAdapter: () => pgliteDialect.createAdapter(),
    createDriver: () => countedDriver(pgliteDialect.createDriver(), use),
    createIntrospector: (k) => pgliteDialect.createIntrospector(k),
    createQueryCompiler: () => pgliteDialect.createQueryCompiler(),
  };
  const queries = queryLog();
  const db = new Kysely<DB>({ dialect, log: queries.log });
  return {
    db,
    kind: 'pglite',
    async listen(channel, onPayload) {
      const unsubscribe = await pglite.listen(channel, onPayload);
      return unsubscribe;
    },
    observeQueries: queries.observe,
    poolStats: () => ({ total: 1, idle: use.held > 0 ? 0 : 1, waiting: use.waiting, max: 1 }),
    async close() {
      await db.destroy();
      await pglite.close();
    },
    // Exposed for tests that snapshot a migrated database.
    ...({ pglite } as object),
  };
}

/** A driver whose connections are counted: held by a statement or a transaction, and waited for. */
function countedDriver(driver: Driver, use: { held: number; waiting: number }): Driver {
  return {
    init: () => driver.init(),
    async acquireConnection() {
      use.waiting++;
      const connection = await driver.acquireConnection().finally(() => { use.waiting--; });
      use.held++;
      return connection;
    },
    async releaseConnection(connection) {
      use.held--;
      await driver.releaseConnection(connection);
    },
    beginTransaction: (connection, settings) => driver.beginTransaction(connection, settings),
    commitTransaction: (connection) => driver.commitTransaction(connection),
    rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
    destroy: () => driver.destroy(),
  };
}
