import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { tariffsStore } from './tariffs';
import type { TariffView } from './store-types';

// The store's actions work on the query cache (decision 020): one client holds what they change.
const client = new QueryClient();

const tariff = (id: string, price: string) => ({ _id: id, price, period: 'month' }) as unknown as TariffView;
const state = () => tariffsStore(client);

describe('tariffs store (spec §4)', () => {
  beforeEach(() => state().load([]));

  it('load replaces the list', () => {
    state().load([tariff('a', '1'), tariff('b', '2')]);
    state().load([tariff('c', '3')]);
    expect(state().tariffs.map((t) => t._id)).toEqual(['c']);
  });

  it('add/update merges into the tariff with the same _id, keeping fields not sent', () => {
    state().load([tariff('a', '1000000'), tariff('b', '2000000')]);
    state().addOrUpdate({ _id: 'a', price: '1500000' });
    expect(state().tariffs).toEqual([
      { _id: 'a', price: '1500000', period: 'month' },
      { _id: 'b', price: '2000000', period: 'month' },
    ]);
  });

  it('add/update appends a tariff with a new _id', () => {
    state().load([tariff('a', '1')]);
    state().addOrUpdate(tariff('b', '2'));
    expect(state().tariffs.map((t) => t._id)).toEqual(['a', 'b']);
  });

  it('delete removes by _id', () => {
    state().load([tariff('a', '1'), tariff('b', '2')]);
    state().remove('b');
    expect(state().tariffs.map((t) => t._id)).toEqual(['a']);
  });
});
