import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAppStore } from '../../store';
import { modemsStore } from '../../store/modems';
import { paymentsStore } from '../../store/payments';
import { pendingCryptoPaymentStore } from '../../store/pending-crypto-payment';
import { pendingPaymentsStore } from '../../store/pending-payments';
import type { CryptoPaymentView, PendingPaymentView } from '../../store/payment-types';
import type { ModemView, PaymentView, TariffView } from '../../store/store-types';
import { SUPPORT_KEYS } from '../../store/support-tickets';
import { tariffsStore } from '../../store/tariffs';
import { applyRealtimeEvent, QUERY_KEYS } from './apply-realtime-event';

const modem = (id: string, IMEI: string, ext_ip: string | null) => ({ _id: id, IMEI, applyStatus: 'idle', ext_ip }) as unknown as ModemView;
const crypto = (data: Partial<CryptoPaymentView['data']> = {}) =>
  ({ _id: 'c1', provider: 'crypto', coin: 'usdt', amount: '5000000', data: { address: 'T1', amount: '5000000', coin: 'usdt', ...data } }) as CryptoPaymentView;
const pending = (id: string) => ({ _id: id, provider: 'paypal', amount: '1000000', createdAt: '2026-01-01T00:00:00Z' }) as PendingPaymentView;

let client: QueryClient;
/** Whether the query under `key` was marked stale by the event (it had fresh data before). */
const stale = (key: readonly string[]) => client.getQueryState(key)?.isInvalidated === true;
const seed = (...keys: ReadonlyArray<readonly string[]>) => { for (const key of keys) client.setQueryData(key, []); };

beforeEach(() => {
  // A new cache per test: the lists the spec §4 actions change live in it (decision 020).
  client = new QueryClient();
  pendingCryptoPaymentStore.getState().cancel();
  useAppStore.getState().loadNotifications([]);
});

describe('realtime events → client store', () => {
  it("'modem' updates by IMEI in the store and the modems query, keeping ext_ip when none is sent", () => {
    modemsStore(client).load([modem('a', '111', '1.1.1.1'), modem('b', '222', '2.2.2.2')]);
    client.setQueryData(QUERY_KEYS.modems, [modem('a', '111', '1.1.1.1'), modem('b', '222', '2.2.2.2')]);

    applyRealtimeEvent('modem', { IMEI: '111', applyStatus: 'rotating' }, client);
    expect(modemsStore(client).modems[0]).toMatchObject({ applyStatus: 'rotating', ext_ip: '1.1.1.1' });

    applyRealtimeEvent('modem', { IMEI: '111', applyStatus: 'idle', ext_ip: '9.9.9.9' }, client);
    expect(modemsStore(client).modems.map((m) => [m.applyStatus, m.ext_ip])).toEqual([['idle', '9.9.9.9'], ['idle', '2.2.2.2']]);
    expect(client.getQueryData<ModemView[]>(QUERY_KEYS.modems)?.map((m) => m.ext_ip)).toEqual(['9.9.9.9', '2.2.2.2']);
  });

  it("'notification' adds to the top of the notifications (the bell counts it) and refreshes the dashboard", () => {
    seed(QUERY_KEYS.dashboard);
    useAppStore.getState().loadNotifications([{ _id: 'old', text: 'x', unread: false, type: 'other', timestamp: '2026-01-01T00:00:00Z' }]);
    applyRealtimeEvent('notification', { _id: 'n1', text: 'Port rotated', unread: true, type: 'other', timestamp: '2026-01-02T00:00:00Z' }, client);
    expect(useAppStore.getState().notifications.map((n) => [n._id, n.unread])).toEqual([['n1', true], ['old', false]]);
    expect(stale(QUERY_KEYS.dashboard)).toBe(true);
  });

  it("'payment' applies the payments add/update action and refreshes payment queries", () => {
    seed(QUERY_KEYS.payments);
    const payment = { _id: 'p1' } as PaymentView;
    applyRealtimeEvent('payment', payment, client);
    expect(paymentsStore(client).payments.map((p) => p._id)).toEqual(['p1']);
    expect(stale(QUERY_KEYS.payments)).toBe(true);
  });

  it("'pending_payment' adds, and cancel removes by _id", () => {
    seed(QUERY_KEYS.pendingPayments);
    applyRealtimeEvent('pending_payment', { action: 'add', payment: pending('q1') }, client);
    applyRealtimeEvent('pending_payment', { action: 'add', payment: pending('q2') }, client);
    applyRealtimeEvent('pending_payment', { action: 'cancel', payment: pending('q1') }, client);
    expect(pendingPaymentsStore(client).pendingPayments.map((p) => p._id)).toEqual(['q2']);
    expect(stale(QUERY_KEYS.pendingPayments)).toBe(true);
  });

  it("'pending_crypto_payment' add sets it, update merges data, cancel clears it", () => {
    applyRealtimeEvent('pending_crypto_payment', { action: 'add', payment: crypto() }, client);
    expect(pendingCryptoPaymentStore.getState().pendingCryptoPayment?.data.address).toBe('T1');
    applyRealtimeEvent('pending_crypto_payment', { action: 'update', payment: crypto({ amount: '7000000' }) }, client);
    expect(pendingCryptoPaymentStore.getState().pendingCryptoPayment?.data).toMatchObject({ address: 'T1', amount: '7000000' });
    applyRealtimeEvent('pending_crypto_payment', { action: 'cancel', payment: crypto() }, client);
    expect(pendingCryptoPaymentStore.getState().pendingCryptoPayment).toBeNull();
  });

  it("'balance' sets the account in the account query, its one home (the header shows it)", () => {
    const account = { btc: { balance: '100', address: 'bc1' }, usdt: { balance: '12340000', address: 'T9' } };
    applyRealtimeEvent('balance', account, client);
    expect(client.getQueryData(QUERY_KEYS.account)).toEqual(account);
  });

  it("'tariff' update merges by _id or appends; delete removes by _id", () => {
    seed(QUERY_KEYS.tariffs);
    tariffsStore(client).load([{ _id: 't1', price: '1000000' } as TariffView]);
    applyRealtimeEvent('tariff', { action: 'update', tariff: { _id: 't1', price: '2000000' } }, client);
    applyRealtimeEvent('tariff', { action: 'update', tariff: { _id: 't2', price: '3000000' } }, client);
    expect(tariffsStore(client).tariffs.map((t) => [t._id, t.price])).toEqual([['t1', '2000000'], ['t2', '3000000']]);
    applyRealtimeEvent('tariff', { action: 'delete', tariff: { _id: 't1' } }, client);
    expect(tariffsStore(client).tariffs.map((t) => t._id)).toEqual(['t2']);
    expect(stale(QUERY_KEYS.tariffs)).toBe(true);
  });

  it("'support_ticket' puts the reply into the open conversation and refreshes it and the list", () => {
    const ticket = { _id: 't1', number: 1001, subject: 'Port down', state: 'waiting' as const, port: null, unread: true,
      lastMessageAt: '2026-11-25T10:05:00Z', createdAt: '2026-11-25T10:00:00Z' };
    client.setQueryData(SUPPORT_KEYS.list, [{ ...ticket, state: 'open', unread: false }]);
    client.setQueryData(SUPPORT_KEYS.ticket('t1'), { ...ticket, state: 'open', unread: false, messages: [] });
    const message = { _id: 'm1', author: 'operator' as const, authorName: 'Olga', body: 'Fixed', attachments: [], createdAt: '2026-11-25T10:05:00Z' };
    applyRealtimeEvent('support_ticket', { ticket, message }, client);
    expect(client.getQueryData<Array<{ state: string }>>(SUPPORT_KEYS.list)?.map((t) => t.state)).toEqual(['waiting']);
    expect(client.getQueryData<{ messages: Array<{ body: string }> }>(SUPPORT_KEYS.ticket('t1'))?.messages.map((m) => m.body)).toEqual(['Fixed']);
    expect(stale(SUPPORT_KEYS.list)).toBe(true);
    expect(stale(SUPPORT_KEYS.ticket('t1'))).toBe(true);
  });
});
