// The payment entities the payments store slices hold: the shared API contract of issue 4
// (packages/shared/src/schemas/payments.ts).
export type {
  CryptoPayment as CryptoPaymentView,
  PendingPayment as PendingPaymentView,
  Invoice as InvoiceView,
  SettingsResponse,
  ExchangeRatesResponse,
  PaymentKind,
} from '@cellport/shared/schemas/payments';
