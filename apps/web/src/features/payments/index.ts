import './payments.css';
// What the rest of the app uses from payments: the dialogs' host and indicator (mounted by the shell), and
// startPayment() with an order (the add-funds dialog, Add Proxies, Billing & Renewals), and the Account page's
// saved cards.
export { PaymentHost } from './flow/payment-host';
export { PendingCryptoIndicator } from './pending/pending-crypto-indicator';
export { startPayment } from './flow/payment-flow-store';
export type { PaymentOrder, PaymentMethodId, OpenPayment } from './flow/payment-order';
export { useOfferedMethods } from './flow/offered-methods';
export { totalBalanceDollars } from './lib/amounts';
export { CoinChoice } from './components/coin-choice';
export { MethodChoice, type MethodOrBalance } from './components/method-choice';
export { PayWithButton } from './components/pay-with-button';
export { BalanceEffectNote, BalanceEffectRows } from './components/balance-effect-rows';
export { balanceEffect, type BalanceEffect } from './lib/balance-effect';
export { SavedCardsSection } from './saved-cards/saved-cards-section';
export { useSavedCards } from './api/saved-cards';
export { cardLabel, payableCards } from './saved-cards/saved-card';
