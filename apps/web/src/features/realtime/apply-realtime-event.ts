import type { QueryClient } from '@tanstack/react-query';
import { useAppStore } from '../../store';
import { modemsStore } from '../../store/modems';
import { paymentsStore } from '../../store/payments';
import { pendingCryptoPaymentStore } from '../../store/pending-crypto-payment';
import { pendingPaymentsStore } from '../../store/pending-payments';
import type { ModemView } from '../../store/store-types';
import { tariffsStore } from '../../store/tariffs';
import type { RealtimeEventName, RealtimeEvents } from './realtime-events';

/** The TanStack Query keys that hold the same data as the store slices (see store/catalog-queries.ts). */
export const QUERY_KEYS = {
  account: ['account'],
  modems: ['modems'],
  payments: ['payments'],
  pendingPayments: ['pending-payments'],
  pendingCryptoPayment: ['pending-crypto-payment'],
  tariffs: ['tariffs'],
  dashboard: ['dashboard'],
  notifications: ['notifications'],
} as const;

/**
 * Applies one realtime event: the spec §4 store action it stands for, then the query cache, so a page that reads
 * the store and a page that reads a query both show it without a reload. Events that carry the whole new state
 * (modem status, balance) are written into the cache; the others mark their queries stale, which refetches the
 * ones on screen.
 */
export function applyRealtimeEvent<K extends RealtimeEventName>(
  name: K,
  payload: RealtimeEvents[K],
  queryClient: QueryClient | null,
): void {
  const invalidate = (...keys: ReadonlyArray<readonly string[]>) => {
    for (const queryKey of keys) void queryClient?.invalidateQueries({ queryKey });
  };
  switch (name) {
    case 'modem': {
      const update = payload as RealtimeEvents['modem'];
      modemsStore.getState().updateByImei(update);
      // Same rule as the store: the old ext_ip stays when the event has none.
      queryClient?.setQueryData<ModemView[]>(QUERY_KEYS.modems, (list) => list?.map((m) => (m.IMEI === update.IMEI
        ? { ...m, applyStatus: update.applyStatus, ext_ip: update.ext_ip ? update.ext_ip : m.ext_ip }
        : m)));
      return;
    }
    case 'notification':
      useAppStore.getState().upsertNotification(payload as RealtimeEvents['notification']);
      invalidate(QUERY_KEYS.dashboard);
      return;
    case 'payment':
      paymentsStore.getState().addOrUpdate(payload as RealtimeEvents['payment']);
      invalidate(QUERY_KEYS.payments, QUERY_KEYS.dashboard);
      return;
    case 'pending_payment': {
      const { action, payment } = payload as RealtimeEvents['pending_payment'];
      if (action === 'cancel') pendingPaymentsStore.getState().cancel(payment._id);
      else pendingPaymentsStore.getState().addOrUpdate(payment);
      invalidate(QUERY_KEYS.pendingPayments);
      return;
    }
    case 'pending_crypto_payment': {
      const { action, payment } = payload as RealtimeEvents['pending_crypto_payment'];
      const store = pendingCryptoPaymentStore.getState();
      if (action === 'add') store.add(payment);
      else if (action === 'update') store.update(payment.data);
      else store.cancel();
      invalidate(QUERY_KEYS.pendingCryptoPayment, QUERY_KEYS.pendingPayments);
      return;
    }
    case 'balance': {
      const account = payload as RealtimeEvents['balance'];
      useAppStore.getState().setAccount(account);
      queryClient?.setQueryData(QUERY_KEYS.account, account);
      return;
    }
    case 'tariff': {
      const { action, tariff } = payload as RealtimeEvents['tariff'];
      if (action === 'delete') tariffsStore.getState().remove(tariff._id);
      else tariffsStore.getState().addOrUpdate(tariff);
      invalidate(QUERY_KEYS.tariffs);
      return;
    }
  }
}
