// What every console list's repository shares (decision 029): the total counted up to a cap, and the search pattern.
// Repository code that belongs to no one table, so it is named as a repository: only repositories call it.
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../db/database.js';

/** The most rows a console list counts for its total; past it the list answers this with `totalCapped` (decision 029). */
export const LIST_COUNT_CAP = 10_000;

export interface ListTotal { total: number; totalCapped: boolean }

/**
 * The total of a console list, counted up to `cap` rows: `select count(*) from (<the list's rows> limit cap + 1)`.
 * An exact count reads every matching row, so an unfiltered list grows with the business (the payments list counted
 * 300,000 payments in 77 ms, bench/BENCHMARKS.md "Scale"); this reads at most cap + 1. Past the cap it answers
 * `{total: cap, totalCapped: true}` ("10,000+"); under it, the exact count. `matching`: the list's query with its
 * filters, without paging (its select and order are replaced).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any list's query: only its FROM and WHERE are used
export async function cappedTotal(db: Database, matching: SelectQueryBuilder<any, any, any>, cap: number): Promise<ListTotal> {
  const rows = matching.clearSelect().clearOrderBy().select(sql<number>`1`.as('one')).limit(cap + 1);
  const { rows: [r] } = await sql<{ n: string }>`select count(*) as n from (${rows}) as capped`.execute(db);
  const n = Number(r?.n ?? 0);
  return n > cap ? { total: cap, totalCapped: true } : { total: n, totalCapped: false };
}

/** A LIKE pattern matching `text` anywhere, with its wildcards escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
