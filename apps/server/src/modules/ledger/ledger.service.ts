import { sql } from 'kysely';
import type { Database, Tx } from '../../db/database.js';
import type { CoinColumn } from '../../db/tables/ledger.js';
import { AppError } from '../../lib/app-error.js';

export interface LedgerEntryInput {
  userId: string;
  coin: CoinColumn;
  /** Positive minor units; credit adds it, debit takes it. */
  amount: bigint;
  kind: string;
  /** Unique across the ledger: booking the same reference twice is refused by the database. */
  reference: string;
  paymentId?: string | null;
}

/**
 * The only code that changes balances. Every change is a ledger entry plus the matching balance update in the
 * caller's transaction, so the two never disagree and a replayed reference changes nothing.
 */
export class LedgerService {
  constructor(private readonly db: Database) {}

  /** Adds money. Returns false (and changes nothing) when the reference was already booked. */
  async credit(tx: Tx, entry: LedgerEntryInput): Promise<boolean> {
    if (entry.amount <= 0n) throw new Error('credit amount must be positive');
    const inserted = await tx.insertInto('ledger_entries')
      .values({
        user_id: entry.userId, coin: entry.coin, amount: entry.amount, kind: entry.kind,
        reference: entry.reference, payment_id: entry.paymentId ?? null,
      })
      .onConflict((oc) => oc.column('reference').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return false;
    await tx.insertInto('balances')
      .values({ user_id: entry.userId, coin: entry.coin, amount: entry.amount })
      .onConflict((oc) => oc.columns(['user_id', 'coin']).doUpdateSet({ amount: sql`balances.amount + excluded.amount` }))
      .execute();
    return true;
  }

  /**
   * Takes money if the balance covers it: a conditional update, so concurrent debits can never take the balance
   * below zero (the row lock makes the second one re-check the amount). Throws INSUFFICIENT_FUNDS otherwise.
   * One statement: the entry is written only for the balance row the update took from.
   */
  async debit(tx: Tx, entry: LedgerEntryInput): Promise<void> {
    if (entry.amount < 0n) throw new Error('debit amount must not be negative');
    if (entry.amount === 0n) return; // a 100 % coupon: nothing to book
    const booked = await tx
      .with('debited', (db) => db.updateTable('balances')
        .set({ amount: sql`amount - ${entry.amount}` })
        .where('user_id', '=', entry.userId).where('coin', '=', entry.coin).where('amount', '>=', entry.amount)
        .returning('user_id'))
      .insertInto('ledger_entries')
      .columns(['user_id', 'coin', 'amount', 'kind', 'reference', 'payment_id'])
      .expression((eb) => eb.selectFrom('debited').select([
        'debited.user_id', sql<string>`${entry.coin}::text`.as('coin'), sql<bigint>`${-entry.amount}::bigint`.as('amount'),
        sql<string>`${entry.kind}::text`.as('kind'), sql<string>`${entry.reference}::text`.as('reference'),
        sql<string | null>`${entry.paymentId ?? null}::uuid`.as('payment_id'),
      ]))
      .returning('id')
      .executeTakeFirst();
    if (!booked) throw new AppError('INSUFFICIENT_FUNDS');
  }

  async balances(userId: string): Promise<Record<CoinColumn, bigint>> {
    const rows = await this.db.selectFrom('balances').select(['coin', 'amount']).where('user_id', '=', userId).execute();
    const out: Record<CoinColumn, bigint> = { btc: 0n, usdt: 0n };
    for (const r of rows) out[r.coin] = BigInt(r.amount);
    return out;
  }

  async balance(userId: string, coin: CoinColumn, tx?: Tx): Promise<bigint> {
    const row = await (tx ?? this.db).selectFrom('balances').select('amount')
      .where('user_id', '=', userId).where('coin', '=', coin).executeTakeFirst();
    return row ? BigInt(row.amount) : 0n;
  }
}
