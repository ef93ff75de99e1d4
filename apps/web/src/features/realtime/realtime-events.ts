import type { AccountView, PaymentView, TariffView } from '../../store/store-types';
import type { ModemStatusUpdate } from '../../store/modems';
import type { Notification } from '../../store/notifications-slice';
import type { CryptoPaymentView, PendingPaymentView } from '../../store/payment-types';

// The server → client events of the issue 5 contract (socket.io, room user:<id>). Each payload is what the
// matching store slice holds; `ext_ip` is left out of 'modem' when the address did not change.
export type PendingAction = 'add' | 'update' | 'cancel';

export interface RealtimeEvents {
  modem: ModemStatusUpdate;
  notification: Notification;
  payment: PaymentView;
  pending_payment: { action: PendingAction; payment: PendingPaymentView };
  pending_crypto_payment: { action: PendingAction; payment: CryptoPaymentView };
  balance: AccountView;
  tariff: { action: 'update' | 'delete'; tariff: Partial<TariffView> & Pick<TariffView, '_id'> };
}

export type RealtimeEventName = keyof RealtimeEvents;

export const REALTIME_EVENT_NAMES: readonly RealtimeEventName[] = [
  'modem', 'notification', 'payment', 'pending_payment', 'pending_crypto_payment', 'balance', 'tariff',
];
