import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { pendingPaymentsStore } from './pending-payments';
import type { PendingPaymentView } from './payment-types';

// The store's actions work on the query cache (decision 020): one client holds what they change.
const client = new QueryClient();

const pending = (id: string, amount = '50000000') =>
  ({ _id: id, provider: 'crypto', amount, createdAt: '2026-01-01T00:00:00Z' }) as unknown as PendingPaymentView;
const state = () => pendingPaymentsStore(client);
const ids = () => state().pendingPayments.map((p) => p._id);

describe('pending payments store (spec §4)', () => {
  beforeEach(() => state().load([]));

  it('load replaces the list', () => {
    state().load([pending('a'), pending('b')]);
    state().load([pending('c')]);
    expect(ids()).toEqual(['c']);
  });

  it('add/update adds a pending payment whose _id is absent', () => {
    state().load([pending('a')]);
    state().addOrUpdate(pending('b'));
    expect(ids()).toEqual(['a', 'b']);
  });

  it('add/update removes a pending payment whose _id is present', () => {
    state().load([pending('a'), pending('b')]);
    state().addOrUpdate(pending('a', '1'));
    expect(ids()).toEqual(['b']);
  });

  it('cancel removes by _id and leaves the others', () => {
    state().load([pending('a'), pending('b')]);
    state().cancel('b');
    state().cancel('missing');
    expect(ids()).toEqual(['a']);
  });
});
