/**
 * Ledger reference families for money sent back through a provider. The operator console and the provider's own
 * notification (PayPal IPN, Stripe charge.refunded) book into the same family for one payment, so each path can see
 * what the other already took and never take it twice.
 */
export const paypalRefundFamily = (orderId: string) => `paypal-refund:${orderId}:`;
export const paypalIpnRefundReference = (orderId: string, txnId: string) => `${paypalRefundFamily(orderId)}ipn:${txnId}`;
export const paypalConsoleRefundReference = (orderId: string) => `${paypalRefundFamily(orderId)}admin`;

export const cardRefundFamily = (intentId: string) => `card-refund:${intentId}:`;
export const cardConsoleRefundReference = (intentId: string, paymentId: string) => `${cardRefundFamily(intentId)}admin:${paymentId}`;

/** A LIKE pattern matching every reference of a family (the `_` in Stripe ids is escaped so it matches only itself). */
export const likeFamily = (family: string) => `${family.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
