import { sql } from 'kysely';
import { CompiledOnce } from '../../db/compiled-once.js';
import type { Database, Tx } from '../../db/database.js';
import type { CoinColumn } from '../../db/tables/ledger.js';

export type { CoinColumn } from '../../db/tables/ledger.js';

/** One booking: the entry's columns. Its amount is positive here; the repository signs a debit. */
export interface LedgerBooking {
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
 * The ledger's tables (`ledger_entries`, `balances`): the entry and its balance change always go together, in the
 * caller's transaction. LedgerService decides what may be booked; this is how.
 */
export class LedgerRepository {
  /** The debit's statement, compiled once (every purchase and renewal runs it; issue 31, item 3). */
  private readonly debitQuery = new CompiledOnce<'debit'>(1);

  constructor(private readonly db: Database) {}

  /** Writes the entry and adds to the balance. False (and nothing written) when the reference was already booked. */
  async credit(tx: Tx, entry: LedgerBooking): Promise<boolean> {
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
   * Takes from the balance if it covers the amount, and writes the entry only for the balance row the update took
   * from: one statement, so concurrent debits can never take the balance below zero (the row lock makes the second
   * one re-check the amount). False when the balance did not cover it.
   */
  async debit(tx: Tx, entry: LedgerBooking): Promise<boolean> {
    const paymentId = entry.paymentId ?? null;
    const booked = await this.debitQuery.rows(tx, 'debit',
      [entry.amount, entry.userId, entry.coin, entry.amount, entry.coin, -entry.amount, entry.kind, entry.reference, paymentId],
      () => this.debitStatement(tx, entry, paymentId));
    return booked.length > 0;
  }

  private debitStatement(tx: Tx, entry: LedgerBooking, paymentId: string | null) {
    return tx
      .with('debited', (db) => db.updateTable('balances')
        .set({ amount: sql`amount - ${entry.amount}` })
        .where('user_id', '=', entry.userId).where('coin', '=', entry.coin).where('amount', '>=', entry.amount)
        .returning('user_id'))
      .insertInto('ledger_entries')
      .columns(['user_id', 'coin', 'amount', 'kind', 'reference', 'payment_id'])
      .expression((eb) => eb.selectFrom('debited').select([
        'debited.user_id', sql<string>`${entry.coin}::text`.as('coin'), sql<bigint>`${-entry.amount}::bigint`.as('amount'),
        sql<string>`${entry.kind}::text`.as('kind'), sql<string>`${entry.reference}::text`.as('reference'),
        sql<string | null>`${paymentId}::uuid`.as('payment_id'),
      ]))
      .returning('id');
  }

  async balances(userId: string): Promise<Array<{ coin: CoinColumn; amount: bigint }>> {
    return this.db.selectFrom('balances').select(['coin', 'amount']).where('user_id', '=', userId).execute();
  }

  /**
   * The entries that moved a payment's money: booked with its id, or naming it in their reference. Looked up among
   * its customer's entries (ledger_user): the pattern alone read the whole ledger (bench/BENCHMARKS.md, "Scale").
   */
  ofPayment(userId: string, paymentId: string) {
    return this.db.selectFrom('ledger_entries').selectAll().where('user_id', '=', userId)
      .where((eb) => eb.or([eb('payment_id', '=', paymentId), eb('reference', 'like', `%${paymentId}%`)]))
      .orderBy('id').execute();
  }

  /** The reference of an entry matching a LIKE pattern (a family of references), if one was booked. */
  async firstReferenceLike(tx: Tx, pattern: string): Promise<string | undefined> {
    const row = await tx.selectFrom('ledger_entries').select('reference').where('reference', 'like', pattern).executeTakeFirst();
    return row?.reference;
  }

  async balance(userId: string, coin: CoinColumn, tx?: Tx): Promise<bigint | null> {
    const row = await (tx ?? this.db).selectFrom('balances').select('amount')
      .where('user_id', '=', userId).where('coin', '=', coin).executeTakeFirst();
    return row ? BigInt(row.amount) : null;
  }
}
