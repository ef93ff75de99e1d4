import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

// A Kysely driver for PGlite. The published dialects pin older PGlite majors; this one is small enough to own.
// PGlite is a single connection, so connections are handed out one at a time: a transaction never interleaves
// with another query.
export class PGliteDialect implements Dialect {
  constructor(private readonly db: PGlite) {}
  createAdapter() { return new PostgresAdapter(); }
  createDriver(): Driver { return new PGliteDriver(this.db); }
  createIntrospector(db: Kysely<unknown>) { return new PostgresIntrospector(db); }
  createQueryCompiler() { return new PostgresQueryCompiler(); }
}

class PGliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve();
  private readonly connection: PGliteConnection;
  constructor(db: PGlite) { this.connection = new PGliteConnection(db); }
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const previous = this.queue;
    this.queue = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.connection.release = release;
    return this.connection;
  }
  async releaseConnection(connection: DatabaseConnection) { (connection as PGliteConnection).release(); }
  async beginTransaction(c: DatabaseConnection, settings: TransactionSettings) {
    const level = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await c.executeQuery(CompiledQuery.raw(`begin${level}`));
  }
  async commitTransaction(c: DatabaseConnection) { await c.executeQuery(CompiledQuery.raw('commit')); }
  async rollbackTransaction(c: DatabaseConnection) { await c.executeQuery(CompiledQuery.raw('rollback')); }
  async destroy() {}
}

class PGliteConnection implements DatabaseConnection {
  release: () => void = () => {};
  constructor(private readonly db: PGlite) {}
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // Without parameters the simple protocol runs (it allows several statements, as migrations use).
    const result = query.parameters.length === 0
      ? (await this.db.exec(query.sql)).at(-1) ?? { rows: [], affectedRows: 0, fields: [] }
      : await this.db.query<R>(query.sql, query.parameters as unknown[], { rowMode: 'object' });
    const affected = result.affectedRows;
    return {
      rows: result.rows as R[],
      ...(affected !== undefined && affected > 0 || /^\s*(update|delete|insert)/i.test(query.sql)
        ? { numAffectedRows: BigInt(affected ?? 0) }
        : {}),
    };
  }
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported on PGlite');
  }
}
