import { describe, expect, it } from 'vitest';
import { checkIpn, type IpnExpectation } from './check-ipn.js';
import { parseIpnBody } from './parse-ipn.js';

const expected: IpnExpectation = { receiverEmail: 'Shop@Example.com', amountCents: 1250, currency: 'USD' };
const completed = {
  txn_id: '61E67681CH3238416', payment_status: 'Completed', mc_gross: '12.50', mc_currency: 'USD',
  receiver_email: 'shop@example.com', business: 'shop@example.com', custom: 'paypal_abc', payer_email: 'buyer@example.com',
};

describe('checkIpn', () => {
  it('credits a VERIFIED Completed payment to our receiver (any letter case) for exactly the recorded amount in USD', () => {
    expect(checkIpn('VERIFIED', completed, expected)).toEqual({
      action: 'credit', txnId: '61E67681CH3238416', amountCents: 1250, currency: 'USD', custom: 'paypal_abc', payerEmail: 'buyer@example.com',
    });
  });

  it('credits nothing for an INVALID message, even a perfect-looking one', () => {
    expect(checkIpn('INVALID', completed, expected)).toMatchObject({ action: 'ignore', reason: expect.stringMatching(/INVALID/) });
  });

  it('credits nothing when the money went to another receiver', () => {
    const out = checkIpn('VERIFIED', { ...completed, receiver_email: 'attacker@example.com', business: 'shop@example.com' }, expected);
    expect(out).toMatchObject({ action: 'ignore', reason: expect.stringMatching(/receiver attacker@example.com/) });
  });

  it('falls back to business when receiver_email is absent', () => {
    const { receiver_email: _r, ...withoutReceiver } = completed;
    expect(checkIpn('VERIFIED', withoutReceiver, expected)).toMatchObject({ action: 'credit' });
    expect(checkIpn('VERIFIED', { ...withoutReceiver, business: 'other@example.com' }, expected)).toMatchObject({ action: 'ignore' });
  });

  it('credits nothing for a different amount, even by one cent or with a third decimal', () => {
    expect(checkIpn('VERIFIED', { ...completed, mc_gross: '12.49' }, expected)).toMatchObject({ action: 'ignore', reason: expect.stringMatching(/amount/) });
    expect(checkIpn('VERIFIED', { ...completed, mc_gross: '125.00' }, expected)).toMatchObject({ action: 'ignore' });
    expect(checkIpn('VERIFIED', { ...completed, mc_gross: '12.500' }, expected)).toMatchObject({ action: 'ignore', reason: expect.stringMatching(/unreadable/) });
    expect(checkIpn('VERIFIED', { ...completed, mc_gross: '12.5' }, expected)).toMatchObject({ action: 'credit', amountCents: 1250 });
  });

  it('credits nothing in another currency', () => {
    expect(checkIpn('VERIFIED', { ...completed, mc_currency: 'EUR' }, expected)).toMatchObject({ action: 'ignore', reason: expect.stringMatching(/currency EUR/) });
  });

  it('credits nothing for Pending, Denied or Failed payments and logs why', () => {
    expect(checkIpn('VERIFIED', { ...completed, payment_status: 'Pending', pending_reason: 'echeck' }, expected)).toEqual({
      action: 'ignore', reason: 'payment_status Pending (pending_reason echeck) is not acted on', txnId: '61E67681CH3238416',
    });
    expect(checkIpn('VERIFIED', { ...completed, payment_status: 'Denied' }, expected)).toMatchObject({ action: 'ignore' });
    expect(checkIpn('VERIFIED', { ...completed, payment_status: 'Failed' }, expected)).toMatchObject({ action: 'ignore' });
  });

  it('credits nothing without a txn_id (there would be nothing to deduplicate on)', () => {
    expect(checkIpn('VERIFIED', { ...completed, txn_id: '' }, expected)).toMatchObject({ action: 'ignore', reason: 'no txn_id' });
  });

  it('debits a Refunded or Reversed payment by the negative mc_gross, linked to the original txn', () => {
    const refund = { ...completed, txn_id: '8RV10021UF8861234', payment_status: 'Refunded', mc_gross: '-12.50', parent_txn_id: '61E67681CH3238416', reason_code: 'refund' };
    expect(checkIpn('VERIFIED', refund, expected)).toEqual({
      action: 'debit', txnId: '8RV10021UF8861234', parentTxnId: '61E67681CH3238416', amountCents: 1250, currency: 'USD', custom: 'paypal_abc', paymentStatus: 'Refunded',
    });
    expect(checkIpn('VERIFIED', { ...refund, payment_status: 'Reversed', mc_gross: '-5.00' }, expected)).toMatchObject({ action: 'debit', amountCents: 500, paymentStatus: 'Reversed' });
  });

  it('refuses malformed refunds: unverified, no parent, positive or larger than the original', () => {
    const refund = { ...completed, txn_id: 'R1', payment_status: 'Refunded', mc_gross: '-12.50', parent_txn_id: 'P1' };
    expect(checkIpn('INVALID', refund, expected)).toMatchObject({ action: 'ignore' });
    expect(checkIpn('VERIFIED', { ...refund, parent_txn_id: '' }, expected)).toMatchObject({ action: 'ignore' });
    expect(checkIpn('VERIFIED', { ...refund, mc_gross: '12.50' }, expected)).toMatchObject({ action: 'ignore' });
    expect(checkIpn('VERIFIED', { ...refund, mc_gross: '-12.51' }, expected)).toMatchObject({ action: 'ignore' });
  });
});

describe('parseIpnBody', () => {
  it('decodes form fields', () => {
    expect(parseIpnBody('custom=paypal_1&receiver_email=a%40b.com&item_name=4G+US')).toEqual({ custom: 'paypal_1', receiver_email: 'a@b.com', item_name: '4G US' });
  });

  it('refuses a message with a repeated field', () => {
    expect(parseIpnBody('mc_gross=12.50&mc_gross=1000.00')).toBeNull();
  });
});
