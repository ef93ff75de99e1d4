import { amountToCents } from './amount.js';
import type { IpnVerification } from './ipn-verifier.js';

/** What our records say this payment must look like. */
export interface IpnExpectation {
  receiverEmail: string;
  /** The recorded amount of the pending payment (for a refund: of the original payment), in cents. */
  amountCents: number;
  currency: 'USD';
}

/**
 * The decision on one IPN. `txnId` is the ledger's unique external reference: a credit or debit with a txn_id
 * already seen changes nothing. Every `ignore` carries the reason to log.
 */
export type IpnOutcome =
  | { action: 'credit'; txnId: string; amountCents: number; currency: 'USD'; custom: string | null; payerEmail: string | null }
  | {
      action: 'debit';
      txnId: string;
      parentTxnId: string;
      /** Positive: how much to take back. */
      amountCents: number;
      currency: 'USD';
      custom: string | null;
      paymentStatus: 'Refunded' | 'Reversed';
    }
  | { action: 'ignore'; reason: string; txnId: string | null };

/**
 * Applies the rules for crediting a PayPal payment: only a VERIFIED message, for our receiver, in USD, with status
 * Completed and exactly the recorded amount, credits. Refunded and Reversed (negative mc_gross, with the original
 * payment's parent_txn_id) debit. Everything else is ignored with a reason.
 */
export function checkIpn(verification: IpnVerification, fields: Record<string, string>, expected: IpnExpectation): IpnOutcome {
  const txnId = fields.txn_id?.trim() || null;
  const ignore = (reason: string): IpnOutcome => ({ action: 'ignore', reason, txnId });
  if (verification !== 'VERIFIED') return ignore(`PayPal did not verify the message (${verification})`);
  if (!txnId) return ignore('no txn_id');

  // receiver_email is the account that actually received the money; business is only what the form asked for.
  const receiver = (fields.receiver_email || fields.business || '').trim().toLowerCase();
  if (!receiver || receiver !== expected.receiverEmail.trim().toLowerCase()) return ignore(`receiver ${receiver || '(none)'} is not ours`);
  if (fields.mc_currency !== expected.currency) return ignore(`currency ${fields.mc_currency ?? '(none)'} is not ${expected.currency}`);

  const gross = amountToCents(fields.mc_gross);
  if (gross === null) return ignore(`unreadable mc_gross ${JSON.stringify(fields.mc_gross ?? null)}`);
  const custom = fields.custom || null;
  const status = fields.payment_status;

  if (status === 'Completed') {
    if (gross !== expected.amountCents) return ignore(`amount ${fields.mc_gross} does not match the recorded ${expected.amountCents} cents`);
    return { action: 'credit', txnId, amountCents: gross, currency: 'USD', custom, payerEmail: fields.payer_email || null };
  }
  if (status === 'Refunded' || status === 'Reversed') {
    const parentTxnId = fields.parent_txn_id?.trim();
    if (!parentTxnId) return ignore(`${status} without parent_txn_id`);
    if (gross >= 0) return ignore(`${status} with a non-negative mc_gross ${fields.mc_gross}`);
    if (-gross > expected.amountCents) return ignore(`${status} of ${fields.mc_gross} exceeds the original ${expected.amountCents} cents`);
    return { action: 'debit', txnId, parentTxnId, amountCents: -gross, currency: 'USD', custom, paymentStatus: status };
  }
  const why = fields.pending_reason ? ` (pending_reason ${fields.pending_reason})` : fields.reason_code ? ` (reason_code ${fields.reason_code})` : '';
  return ignore(`payment_status ${status ?? '(none)'}${why} is not acted on`);
}
