import type { RealtimeEventName, RealtimeEvents } from '@cellport/shared/schemas/realtime';
import type { QueryClient } from '@tanstack/react-query';
import { useAppStore } from '../../store';
import { modemsStore } from '../../store/modems';
import { paymentsStore } from '../../store/payments';
import { pendingCryptoPaymentStore } from '../../store/pending-crypto-payment';
import { pendingPaymentsStore } from '../../store/pending-payments';
import { applySupportTicketEvent, SUPPORT_KEYS } from '../../store/support-tickets';
import { tariffsStore } from '../../store/tariffs';

/** The TanStack Query keys of the server state realtime events change (see store/catalog-queries.ts). */
export const QUERY_KEYS = {
  account: ['account'],
  modems: ['modems'],
  payments: ['payments'],
  pendingPayments: ['pending-payments'],
  tariffs: ['tariffs'],
  dashboard: ['dashboard'],
  notifications: ['notifications'],
} as const;

/**
 * Applies one realtime event: the spec §4 store action it stands for. Server lists live in the query cache
 * (decision 020), so the action edits the cached list and every page reading it shows the change without a
 * reload. Events that carry the whole new state (modem status, balance) are final; after the others the
 * queries are marked stale, which refetches the ones on screen.
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
    case 'modem':
      if (queryClient) modemsStore(queryClient).updateByImei(payload as RealtimeEvents['modem']);
      return;
    case 'notification':
      useAppStore.getState().upsertNotification(payload as RealtimeEvents['notification']);
      // A notification may be about a port that changed where no 'modem' event reaches (moved to another modem,
      // renewed, expired): the port list is refetched too (the server keeps it in memory).
      invalidate(QUERY_KEYS.dashboard, QUERY_KEYS.modems);
      return;
    case 'payment':
      if (queryClient) paymentsStore(queryClient).addOrUpdate(payload as RealtimeEvents['payment']);
      invalidate(QUERY_KEYS.payments, QUERY_KEYS.dashboard);
      return;
    case 'pending_payment': {
      const { action, payment } = payload as RealtimeEvents['pending_payment'];
      if (queryClient) {
        if (action === 'cancel') pendingPaymentsStore(queryClient).cancel(payment._id);
        else pendingPaymentsStore(queryClient).addOrUpdate(payment);
      }
      invalidate(QUERY_KEYS.pendingPayments);
      return;
    }
    case 'pending_crypto_payment': {
      const { action, payment } = payload as RealtimeEvents['pending_crypto_payment'];
      const store = pendingCryptoPaymentStore.getState();
      if (action === 'add') store.add(payment);
      else if (action === 'update') store.update(payment.data);
      else store.cancel();
      // The payment's one home is the store just updated; only the pending payments list is refetched.
      invalidate(QUERY_KEYS.pendingPayments);
      return;
    }
    case 'balance':
      queryClient?.setQueryData(QUERY_KEYS.account, payload as RealtimeEvents['balance']);
      return;
    case 'tariff': {
      const { action, tariff } = payload as RealtimeEvents['tariff'];
      if (queryClient) {
        if (action === 'delete') tariffsStore(queryClient).remove(tariff._id);
        else tariffsStore(queryClient).addOrUpdate(tariff);
      }
      invalidate(QUERY_KEYS.tariffs);
      return;
    }
    case 'support_ticket': {
      const event = payload as RealtimeEvents['support_ticket'];
      if (queryClient) applySupportTicketEvent(queryClient, event);
      // Refetched when on screen: an open conversation reads the reply (marking it read), the list its unread marks.
      invalidate(SUPPORT_KEYS.list, SUPPORT_KEYS.ticket(event.ticket._id));
      return;
    }
  }
}
