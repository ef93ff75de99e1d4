import { beforeEach, describe, expect, it } from 'vitest';
import { paymentsStore } from './payments';
import type { PaymentView } from './store-types';

const payment = (id: string, description = `payment ${id}`) => ({ _id: id, description }) as unknown as PaymentView;
const ids = () => paymentsStore.getState().payments.map((p) => p._id);

describe('payments store (spec §4)', () => {
  beforeEach(() => paymentsStore.getState().load([]));

  it('load replaces the list', () => {
    paymentsStore.getState().load([payment('a'), payment('b')]);
    paymentsStore.getState().load([payment('c')]);
    expect(ids()).toEqual(['c']);
  });

  it('add/update adds a payment whose _id is absent', () => {
    paymentsStore.getState().load([payment('a')]);
    paymentsStore.getState().addOrUpdate(payment('b'));
    expect(ids()).toEqual(['a', 'b']);
  });

  it('add/update removes a payment whose _id is present', () => {
    paymentsStore.getState().load([payment('a'), payment('b')]);
    paymentsStore.getState().addOrUpdate(payment('a', 'changed'));
    expect(ids()).toEqual(['b']);
  });

  it('cancel removes by _id and leaves the others', () => {
    paymentsStore.getState().load([payment('a'), payment('b')]);
    paymentsStore.getState().cancel('a');
    paymentsStore.getState().cancel('missing');
    expect(ids()).toEqual(['b']);
  });
});
