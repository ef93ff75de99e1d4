import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { PaymentView } from './store-types';

// Spec §4, client store: "Payments: load replaces the list; add/update adds if _id absent, otherwise removes;
// cancel removes by _id." The add/update action is a toggle by design of the spec: a payment already in the list
// is taken out (the old dashboard used it to drop a payment that changed state), one not in it is appended.
export interface PaymentsState {
  payments: PaymentView[];
  load: (payments: PaymentView[]) => void;
  addOrUpdate: (payment: PaymentView) => void;
  cancel: (id: string) => void;
}

export const paymentsStore = createStore<PaymentsState>()((set) => ({
  payments: [],
  load: (payments) => set({ payments: [...payments] }),
  addOrUpdate: (payment) =>
    set(({ payments }) =>
      payments.some((p) => p._id === payment._id)
        ? { payments: payments.filter((p) => p._id !== payment._id) }
        : { payments: [...payments, payment] },
    ),
  cancel: (id) => set(({ payments }) => ({ payments: payments.filter((p) => p._id !== id) })),
}));

export const usePaymentsStore = <T>(selector: (state: PaymentsState) => T): T => useStore(paymentsStore, selector);
