import { useCallback } from 'react';
import { useT } from '../../../lib/i18n';
import { CardPaymentModal } from '../card/card-payment-modal';
import { CryptoPaymentModal } from '../crypto/crypto-payment-modal';
import { PaypalCheckout } from '../paypal/paypal-checkout';
import { orderDescription } from './order-description';
import { paymentFlowStore, usePaymentFlow } from './payment-flow-store';
import { PaymentBanner } from './payment-banner';
import { useShellPaymentData } from './use-shell-payment-data';
import '../payments.css';

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
  return <>{dialog}<PaymentBanner /></>;
}
