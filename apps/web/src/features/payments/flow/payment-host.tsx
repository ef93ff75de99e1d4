import { Suspense, lazy, useCallback } from 'react';
import { useT } from '../../../lib/i18n';
import { orderDescription } from './order-description';
import { paymentFlowStore, usePaymentFlow } from './payment-flow-store';
import { PaymentBanner } from './payment-banner';
import { useShellPaymentData } from './use-shell-payment-data';
import '../payments.css';

// Each method's dialog loads when a payment opens it, not with every page (issue 31, item 4).
const CardPaymentModal = lazy(() => import('../card/card-payment-modal').then((m) => ({ default: m.CardPaymentModal })));
const CryptoPaymentModal = lazy(() => import('../crypto/crypto-payment-modal').then((m) => ({ default: m.CryptoPaymentModal })));
const PaypalCheckout = lazy(() => import('../paypal/paypal-checkout').then((m) => ({ default: m.PaypalCheckout })));

/**
 * The one place the payment dialogs render, mounted once by the shell: whatever starts a payment (add funds,
 * Add Proxies, Billing & Renewals, the pending indicator) calls startPayment() and this shows the dialog.
 * It also loads what payments need at start: settings (spec §7) and the BTC rate.
 */
export function PaymentHost() {
  const { t, language } = useT('payments');
  const open = usePaymentFlow((s) => s.open);
  const close = useCallback(() => paymentFlowStore.getState().close(), []);
  useShellPaymentData();

  let dialog = null;
  if (open?.method === 'card') dialog = <CardPaymentModal order={open.order} onClose={close} />;
  else if (open?.method === 'paypal') dialog = <PaypalCheckout order={open.order} description={orderDescription(t, language, open.order)} onClose={close} />;
  else if (open?.method === 'crypto') dialog = <CryptoPaymentModal order={open.order} coin={open.order ? open.coin : null} onClose={close} />;
  return <><Suspense fallback={null}>{dialog}</Suspense><PaymentBanner /></>;
}
