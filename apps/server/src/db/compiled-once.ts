import { CompiledQuery, sql, type Compilable, type QueryResult, type RawBuilder } from 'kysely';

/** What runs a compiled query: the database or a transaction. */
interface Executor { executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> }

/** A kept text cut at its placeholders: `parts[i]` comes before the value of parameter `slots[i]` (0-based). */
interface Cut { parts: TemplateStringsArray; slots: number[] }

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
  private readonly cuts = new Map<K, Cut>();

  /** `maxKeys`: shapes kept; a rarer one past them is compiled each time, so the memory stays bounded. */
  constructor(private readonly maxKeys = 32) {}

  async rows<R>(on: Executor, key: K, parameters: readonly unknown[], build: () => Compilable<R>): Promise<R[]> {
    const text = this.texts.get(key);
    if (text !== undefined) return (await on.executeQuery(CompiledQuery.raw(text, [...parameters]) as CompiledQuery<R>)).rows;
    const compiled = this.compile(key, parameters, build);
    return (await on.executeQuery(compiled)).rows;
  }

  /**
   * The same query as a part of a bigger statement (a CTE, a subquery): the kept text, its placeholders given this
   * call's values, which the bigger statement numbers in its own order. A purchase writes its ports and lists them in
   * one statement, and building the listing's select each time cost more CPU than the round trip it saved (issue 31).
   */
  fragment<R>(key: K, parameters: readonly unknown[], build: () => Compilable<R>): RawBuilder<R> {
    let cut = this.cuts.get(key);
    if (cut === undefined) {
      const text = this.texts.get(key) ?? this.compile(key, parameters, build).sql;
      cut = cutAtPlaceholders(text);
      if (this.cuts.size < this.maxKeys) this.cuts.set(key, cut);
    }
    return sql<R>(cut.parts, ...cut.slots.map((slot) => parameters[slot]));
  }

  private compile<R>(key: K, parameters: readonly unknown[], build: () => Compilable<R>): CompiledQuery<R> {
    const compiled = build().compile();
    if (compiled.parameters.length !== parameters.length || compiled.parameters.some((p, i) => p !== parameters[i])) {
      throw new Error(`CompiledOnce: the query's parameters ${JSON.stringify(compiled.parameters)} are not the ones given ${JSON.stringify(parameters)}`);
    }
    if (this.texts.size < this.maxKeys) this.texts.set(key, compiled.sql);
    return compiled;
  }
}

/**
 * Kysely's PostgreSQL text puts a value only as `$n` and never writes `$` followed by a digit otherwise (identifiers
 * are quoted, values are never inlined in these shapes), so a cut at `$n` is exact.
 */
function cutAtPlaceholders(text: string): Cut {
  const parts: string[] = [];
  const slots: number[] = [];
  let from = 0;
  for (const m of text.matchAll(/\$(\d+)/g)) {
    parts.push(text.slice(from, m.index));
    slots.push(Number(m[1]) - 1);
    from = m.index + m[0].length;
  }
  parts.push(text.slice(from));
  return { parts: Object.assign(parts, { raw: parts }) as unknown as TemplateStringsArray, slots };
}

/** The texts of the inserts `keptInsert` was asked for, by table, shape and number of rows. */
const insertTexts = new CompiledOnce<string>(128);

/**
 * An insert of `rows` (with whatever `build` adds: ON CONFLICT, RETURNING) as a part of a bigger statement, its text
 * built and compiled by Kysely once per table, shape and number of rows: a purchase's statements write eight tables,
 * and building those inserts was a tenth of its server CPU (issue 31). `build` must make exactly
 * `insertInto(table).values(rows)` and clauses without values of their own; CompiledOnce's check of the first
 * compile's parameters catches any other. Rows of different shapes are built each time.
 */
export function keptInsert<R>(table: string, insertRows: ReadonlyArray<object>, build: () => Compilable<R>): RawBuilder<R> | Compilable<R> {
  const rows = insertRows as ReadonlyArray<Record<string, unknown>>;
  const first = rows[0];
  if (!first) return build();
  const columns = Object.keys(first);
  const shape = columns.map((c) => (first[c] === undefined ? `-${c}` : c)).join(',');
  // Kysely leaves out a column whose value is undefined, so that is part of the shape; rows unlike the first are
  // written as Kysely writes them.
  const alike = rows.every((row) => {
    const keys = Object.keys(row);
    return keys.length === columns.length && keys.every((k, i) => k === columns[i] && (row[k] === undefined) === (first[k] === undefined));
  });
  if (!alike) return build();
  const parameters = rows.flatMap((row) => columns.filter((c) => first[c] !== undefined).map((c) => row[c]));
  return insertTexts.fragment(`${table}|${rows.length}|${shape}`, parameters, build);
}
