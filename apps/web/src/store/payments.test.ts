import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { paymentsStore } from './payments';
import type { PaymentView } from './store-types';

// The store's actions work on the query cache (decision 020): one client holds what they change.
const client = new QueryClient();

const payment = (id: string, description = `payment ${id}`) => ({ _id: id, description }) as unknown as PaymentView;
const ids = () => paymentsStore(client).payments.map((p) => p._id);

describe('payments store (spec §4)', () => {
  beforeEach(() => paymentsStore(client).load([]));

  it('load replaces the list', () => {
    paymentsStore(client).load([payment('a'), payment('b')]);
    paymentsStore(client).load([payment('c')]);
    expect(ids()).toEqual(['c']);
  });

  it('add/update adds a payment whose _id is absent', () => {
    paymentsStore(client).load([payment('a')]);
    paymentsStore(client).addOrUpdate(payment('b'));
    expect(ids()).toEqual(['a', 'b']);
  });

  it('add/update removes a payment whose _id is present', () => {
    paymentsStore(client).load([payment('a'), payment('b')]);
    paymentsStore(client).addOrUpdate(payment('a', 'changed'));
    expect(ids()).toEqual(['b']);
  });

  it('cancel removes by _id and leaves the others', () => {
    paymentsStore(client).load([payment('a'), payment('b')]);
    paymentsStore(client).cancel('a');
    paymentsStore(client).cancel('missing');
    expect(ids()).toEqual(['b']);
  });
});
