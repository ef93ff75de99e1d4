import type { QueryClient } from '@tanstack/react-query';
import { cachedList } from './cached-list';
import { pendingPaymentsQuery } from './catalog-queries';
import type { PendingPaymentView } from './payment-types';

// Spec §4, client store: "Pending payments: load replaces the list; add/update adds if _id absent, otherwise
// removes; cancel removes by _id." — the same toggle as the payments actions (store/payments.ts): a pending payment
// that is sent again has changed state (paid, expired) and leaves the list. The list lives in the query cache
// (pendingPaymentsQuery, decision 020).
export interface PendingPaymentsState {
  pendingPayments: PendingPaymentView[];
  load: (list: PendingPaymentView[]) => void;
  addOrUpdate: (payment: PendingPaymentView) => void;
  cancel: (id: string) => void;
}

export function pendingPaymentsStore(client: QueryClient): PendingPaymentsState {
  const list = cachedList<PendingPaymentView>(client, pendingPaymentsQuery.queryKey);
  return {
    get pendingPayments() { return list.get(); },
    load: list.set,
    addOrUpdate: (payment) =>
      list.change((pending) =>
        pending.some((p) => p._id === payment._id)
          ? pending.filter((p) => p._id !== payment._id)
          : [...pending, payment],
      ),
    cancel: (id) => list.change((pending) => pending.filter((p) => p._id !== id)),
  };
}
