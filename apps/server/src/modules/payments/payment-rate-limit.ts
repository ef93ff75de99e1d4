// Moved to lib/ (the purchases' routes use it too, and a face importing the other would make a cycle); kept here
// for the payments' routes until they import it from there.
export { paymentRateLimit, type PaymentRateLimit } from '../../lib/payment-rate-limit.js';
