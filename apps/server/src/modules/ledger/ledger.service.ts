import type { LedgerEntry } from '@cellport/shared/schemas/admin/customers';
import type { Tx } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { CoinColumn, LedgerBooking, LedgerRepository } from './ledger.repository.js';

interface LedgerRow { id: string | bigint; coin: CoinColumn; amount: bigint; kind: string; reference: string; payment_id: string | null; created_at: Date }
/** A ledger entry as the console shows it. */
export const toLedgerEntry = (r: LedgerRow): LedgerEntry => ({
  id: String(r.id), coin: r.coin, amount: BigInt(r.amount).toString(), kind: r.kind, reference: r.reference,
  paymentId: r.payment_id, createdAt: r.created_at.toISOString(),
});

/** What a caller books: the repository's booking, checked here first (positive amounts). */
export type LedgerEntryInput = LedgerBooking;

/**
 * The only code that changes balances. Every change is a ledger entry plus the matching balance update in the
 * caller's transaction, so the two never disagree and a replayed reference changes nothing.
 */
export class LedgerService {
  constructor(private readonly repo: LedgerRepository) {}

  /** Adds money. Returns false (and changes nothing) when the reference was already booked. */
  async credit(tx: Tx, entry: LedgerEntryInput): Promise<boolean> {
    if (entry.amount <= 0n) throw new Error('credit amount must be positive');
    return this.repo.credit(tx, entry);
  }

  /**
   * Takes money if the balance covers it: a conditional update, so concurrent debits can never take the balance
   * below zero (the row lock makes the second one re-check the amount). Throws INSUFFICIENT_FUNDS otherwise.
   * One statement: the entry is written only for the balance row the update took from.
   */
  async debit(tx: Tx, entry: LedgerEntryInput): Promise<void> {
    if (entry.amount < 0n) throw new Error('debit amount must not be negative');
    if (entry.amount === 0n) return; // a 100 % coupon: nothing to book
    if (!await this.repo.debit(tx, entry)) throw new AppError('INSUFFICIENT_FUNDS');
  }

  /** The entries that moved a payment's money, as the console shows them. */
  async paymentEntries(userId: string, paymentId: string): Promise<LedgerEntry[]> {
    return (await this.repo.ofPayment(userId, paymentId)).map(toLedgerEntry);
  }

  /** The reference of a booked entry matching a LIKE pattern (a family of references, escaped), if any. */
  firstReferenceLike(tx: Tx, pattern: string): Promise<string | undefined> {
    return this.repo.firstReferenceLike(tx, pattern);
  }

  async balances(userId: string): Promise<Record<CoinColumn, bigint>> {
    const rows = await this.repo.balances(userId);
    const out: Record<CoinColumn, bigint> = { btc: 0n, usdt: 0n };
    for (const r of rows) out[r.coin] = BigInt(r.amount);
    return out;
  }

  async balance(userId: string, coin: CoinColumn, tx?: Tx): Promise<bigint> {
    return (await this.repo.balance(userId, coin, tx)) ?? 0n;
  }
}
