import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Database } from '../../db/database.js';

/** Asserts that for every user and coin the balance equals the sum of the ledger, and no balance is negative. */
export async function expectLedgerMatchesBalances(db: Database): Promise<void> {
  const { rows } = await sql<{ user_id: string; coin: string; balance: string; ledger: string }>`
    select coalesce(b.user_id, l.user_id) as user_id, coalesce(b.coin, l.coin) as coin,
           coalesce(b.amount, 0)::text as balance, coalesce(l.total, 0)::text as ledger
    from balances b
    full outer join (select user_id, coin, sum(amount) as total from ledger_entries group by user_id, coin) l
      on l.user_id = b.user_id and l.coin = b.coin
  `.execute(db);
  for (const r of rows) {
    expect({ user: r.user_id, coin: r.coin, balance: r.ledger }).toEqual({ user: r.user_id, coin: r.coin, balance: r.balance });
    expect(BigInt(r.balance) >= 0n).toBe(true);
  }
}
