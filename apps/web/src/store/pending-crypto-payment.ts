import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { CryptoPaymentView } from './payment-types';

// Spec §4, client store: "Pending crypto payment: add sets it; update merges data; cancel clears it."
// `update` merges into `data` (address, amounts, coin…) and keeps everything else: the poll and the modal both
// refresh the deposit details of the one payment the customer is paying. This store is its one home (decision
// 020): the payment this tab created is known here before the server's active-payment poll reports it, and the
// poll (features/payments/pending) applies its answers through these actions instead of caching them.
export interface PendingCryptoPaymentState {
  pendingCryptoPayment: CryptoPaymentView | null;
  add: (payment: CryptoPaymentView) => void;
  update: (data: Partial<CryptoPaymentView['data']>) => void;
  cancel: () => void;
}

export const pendingCryptoPaymentStore = createStore<PendingCryptoPaymentState>()((set) => ({
  pendingCryptoPayment: null,
  add: (payment) => set({ pendingCryptoPayment: payment }),
  update: (data) =>
    set(({ pendingCryptoPayment }) =>
      pendingCryptoPayment ? { pendingCryptoPayment: { ...pendingCryptoPayment, data: { ...pendingCryptoPayment.data, ...data } } } : {},
    ),
  cancel: () => set({ pendingCryptoPayment: null }),
}));

export const usePendingCryptoPaymentStore = <T>(selector: (state: PendingCryptoPaymentState) => T): T =>
  useStore(pendingCryptoPaymentStore, selector);
