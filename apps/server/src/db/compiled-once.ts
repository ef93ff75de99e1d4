import { CompiledQuery, type Compilable, type QueryResult } from 'kysely';

/** What runs a compiled query: the database or a transaction. */
interface Executor { executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> }

/**
 * A hot query whose SQL text depends only on a shape key (say, how many ids it asks for): Kysely builds and compiles
 * it once per key, and later calls send the kept text with their own parameters. Building and compiling a wide select
 * (a customer's ports: 45 columns, seven joins) cost the server more CPU than sending it and reading the answer, and a
 * purchase runs it under its transaction's locks (issue 31, item 3).
 *
 * The first compile's parameters must be the ones the caller gives, in the same order: a builder whose parameters
 * differ fails there, at once, instead of later calls running with values in the wrong places.
 */
export class CompiledOnce<K> {
  private readonly texts = new Map<K, string>();

  /** `maxKeys`: shapes kept; a rarer one past them is compiled each time, so the memory stays bounded. */
  constructor(private readonly maxKeys = 32) {}

  async rows<R>(on: Executor, key: K, parameters: readonly unknown[], build: () => Compilable<R>): Promise<R[]> {
    const text = this.texts.get(key);
    if (text !== undefined) return (await on.executeQuery(CompiledQuery.raw(text, [...parameters]) as CompiledQuery<R>)).rows;
    const compiled = build().compile();
    if (compiled.parameters.length !== parameters.length || compiled.parameters.some((p, i) => p !== parameters[i])) {
      throw new Error(`CompiledOnce: the query's parameters ${JSON.stringify(compiled.parameters)} are not the ones given ${JSON.stringify(parameters)}`);
    }
    if (this.texts.size < this.maxKeys) this.texts.set(key, compiled.sql);
    return (await on.executeQuery(compiled)).rows;
  }
}
