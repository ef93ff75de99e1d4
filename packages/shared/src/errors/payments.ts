// Money in (issue 4): crypto, card, PayPal, pending payments and invoices.
export const PAYMENT_ERRORS = {
  AMOUNT_INVALID: 'Enter an amount of at least $1',
  AMOUNT_MISMATCH: 'The amount does not match the price of this order',
  ORDER_INVALID: 'Choose either a tariff or ports to renew',
  PAYMENT_METHOD_DISABLED: 'This payment method is not available right now',
  RATE_UNAVAILABLE: 'The bitcoin exchange rate is not available right now. Please try again in a minute or pay with USDT.',
  PAYMENT_NOT_PENDING: 'This payment is no longer pending',
  SIMULATION_DISABLED: 'Simulated payments are available only in sandbox mode',
  SUBSCRIPTION_NOT_AVAILABLE: 'A monthly subscription is available only for monthly tariffs that allow it',
  SUBSCRIPTION_NOT_FOUND: 'This subscription was not found',
  SUBSCRIPTION_ENDED: 'This subscription has ended',
  SUBSCRIPTION_ALREADY_CANCELLING: 'This subscription already ends with its current period',
  SUBSCRIPTION_NOT_CANCELLING: 'This subscription is not set to end, so there is nothing to resume',
  CARD_DECLINED: 'Your card was declined.',
  CARD_PROVIDER_ERROR: 'The card payment could not be started. Please try again.',
  CARD_NOT_FOUND: 'This card was not found',
  INVOICE_NOT_FOUND: 'This invoice was not found',
} as const;
