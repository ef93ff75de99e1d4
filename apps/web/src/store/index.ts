import { create } from 'zustand';
import { createNotificationsSlice, type NotificationsSlice } from './notifications-slice';

/**
 * The client store of spec §3/§4 (decision 020). Server state lives in one place, the TanStack Query cache: the
 * spec's actions for payments, pending payments, tariffs, rotation tags and modems are thin functions over it
 * (payments.ts, …), and account, settings, exchange rates and the user are read from it (catalog-queries.ts,
 * settings.ts, exchange-rates.ts, user-slice.ts). zustand holds only what no query fetches: the notifications
 * (fed by their ETag poll and realtime), the pending crypto payment this tab is paying (pending-crypto-payment.ts)
 * and the payment flow (features/payments/flow).
 */
export type AppState = NotificationsSlice;

export const useAppStore = create<AppState>()((...a) => ({
  ...createNotificationsSlice(...a),
}));
