import { beforeEach, describe, expect, it } from 'vitest';
import { pendingCryptoPaymentStore } from './pending-crypto-payment';
import type { CryptoPaymentView } from './payment-types';

const payment = (id: string) => ({
  _id: id, provider: 'crypto', kind: 'topup', status: 'pending', coin: 'btc', amount: '50000000',
  data: { address: 'bc1qaddress', amount: '50000000', amountBTC: '77000', coin: 'btc' },
}) as unknown as CryptoPaymentView;
const state = () => pendingCryptoPaymentStore.getState();

describe('pending crypto payment store (spec §4)', () => {
  beforeEach(() => state().cancel());

  it('add sets it, replacing a previous one', () => {
    state().add(payment('a'));
    state().add(payment('b'));
    expect(state().pendingCryptoPayment?._id).toBe('b');
  });

  it('update merges into data and keeps the other fields', () => {
    state().add(payment('a'));
    state().update({ amountBTC: '76000' });
    expect(state().pendingCryptoPayment).toMatchObject({
      _id: 'a', status: 'pending', data: { address: 'bc1qaddress', amount: '50000000', amountBTC: '76000', coin: 'btc' },
    });
  });

  it('update without a payment changes nothing', () => {
    state().update({ amountBTC: '1' });
    expect(state().pendingCryptoPayment).toBeNull();
  });

  it('cancel clears it', () => {
    state().add(payment('a'));
    state().cancel();
    expect(state().pendingCryptoPayment).toBeNull();
  });
});
