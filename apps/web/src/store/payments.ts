import type { QueryClient } from '@tanstack/react-query';
import { cachedList } from './cached-list';
import { paymentsQuery } from './catalog-queries';
import type { PaymentView } from './store-types';

// Spec §4, client store: "Payments: load replaces the list; add/update adds if _id absent, otherwise removes;
// cancel removes by _id." The add/update action is a toggle by design of the spec: a payment already in the list
// is taken out (the old dashboard used it to drop a payment that changed state), one not in it is appended.
// The list lives in the query cache (paymentsQuery, decision 020); these actions edit it there.
export interface PaymentsState {
  payments: PaymentView[];
  load: (payments: PaymentView[]) => void;
  addOrUpdate: (payment: PaymentView) => void;
  cancel: (id: string) => void;
}

export function paymentsStore(client: QueryClient): PaymentsState {
  const list = cachedList<PaymentView>(client, paymentsQuery.queryKey);
  return {
    get payments() { return list.get(); },
    load: list.set,
    addOrUpdate: (payment) =>
      list.change((payments) =>
        payments.some((p) => p._id === payment._id)
          ? payments.filter((p) => p._id !== payment._id)
          : [...payments, payment],
      ),
    cancel: (id) => list.change((payments) => payments.filter((p) => p._id !== id)),
  };
}
