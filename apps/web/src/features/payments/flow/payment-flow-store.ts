import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { OpenPayment } from './payment-order';

/**
 * Which payment dialog is open, shared by everything that starts a payment (the add-funds dialog, Add Proxies,
 * Billing & Renewals, the pending indicator) and the one host in the shell that renders the dialogs.
 * `cryptoCreatedAt` marks a crypto payment just created: the indicator shows 'Adding proxy' for 8 s after it.
 */
interface PaymentFlowState {
  open: OpenPayment | null;
  cryptoCreatedAt: number | null;
  start: (payment: OpenPayment) => void;
  close: () => void;
  markCryptoCreated: () => void;
}

export const paymentFlowStore = createStore<PaymentFlowState>()((set) => ({
  open: null,
  cryptoCreatedAt: null,
  start: (payment) => set({ open: payment }),
  close: () => set({ open: null }),
  markCryptoCreated: () => set({ cryptoCreatedAt: Date.now() }),
}));

export const usePaymentFlow = <T>(selector: (state: PaymentFlowState) => T): T => useStore(paymentFlowStore, selector);
/** Opens a payment dialog from anywhere in the shell. */
export const startPayment = (payment: OpenPayment) => paymentFlowStore.getState().start(payment);
