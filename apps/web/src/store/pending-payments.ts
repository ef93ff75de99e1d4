import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { PendingPaymentView } from './payment-types';

// Spec §4, client store: "Pending payments: load replaces the list; add/update adds if _id absent, otherwise
// removes; cancel removes by _id." — the same toggle as the payments slice (store/payments.ts): a pending payment
// that is sent again has changed state (paid, expired) and leaves the list.
export interface PendingPaymentsState {
  pendingPayments: PendingPaymentView[];
  load: (list: PendingPaymentView[]) => void;
  addOrUpdate: (payment: PendingPaymentView) => void;
  cancel: (id: string) => void;
}

export const pendingPaymentsStore = createStore<PendingPaymentsState>()((set) => ({
  pendingPayments: [],
  load: (list) => set({ pendingPayments: [...list] }),
  addOrUpdate: (payment) =>
    set(({ pendingPayments }) =>
      pendingPayments.some((p) => p._id === payment._id)
        ? { pendingPayments: pendingPayments.filter((p) => p._id !== payment._id) }
        : { pendingPayments: [...pendingPayments, payment] },
    ),
  cancel: (id) => set(({ pendingPayments }) => ({ pendingPayments: pendingPayments.filter((p) => p._id !== id) })),
}));

export const usePendingPaymentsStore = <T>(selector: (state: PendingPaymentsState) => T): T =>
  useStore(pendingPaymentsStore, selector);
