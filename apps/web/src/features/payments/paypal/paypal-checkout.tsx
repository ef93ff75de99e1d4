import type { PaypalPendingResponse } from '@cellport/shared/schemas/payments';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n';
import { useLanguage } from '../../../lib/language';
import { formatUsd } from '../../../lib/money';
import { toast } from '../../../lib/toast';
import { useSettings } from '../../../store/settings';
import { simulatePendingPayment } from '../api/crypto-payments';
import { createPaypalPayment } from '../api/paypal-payments';
import { rememberPaymentLanguage } from '../flow/payment-banner-flag';
import type { PaymentOrder } from '../flow/payment-order';
import { refreshAfterPayment } from '../flow/refresh-after-payment';
import { paymentErrorText } from '../lib/error-text';
import { submitPaypalForm } from './submit-paypal-form';

/**
 * PayPal: records the pending PayPal payment, then posts the checkout form to PayPal. With sandbox payments
 * (settings.simulatePayments) there is no PayPal to go to: a confirmation step completes the payment offline and
 * goes to /thank-you-for-order?order=<id>, where PayPal would have returned the customer.
 */
export function PaypalCheckout({ order, description, onClose }: { order: PaymentOrder; description: string; onClose: () => void }) {
  const { t } = useT(['payments', 'errors']);
  const language = useLanguage();
  const simulate = useSettings().simulatePayments === true;
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [pending, setPending] = useState<PaypalPendingResponse | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    rememberPaymentLanguage(language);
    createPaypalPayment(order, description).then(
      (answer) => {
        void queryClient.invalidateQueries({ queryKey: ['pending-payments'] });
        if (simulate) setPending(answer);
        else submitPaypalForm(answer.form);
      },
      (error) => { toast.error(paymentErrorText(t, error)); onClose(); },
    );
  }, [order, description, language, simulate, queryClient, t, onClose]);

  async function completeSandbox() {
    if (!pending) return;
    setConfirming(true);
    setFailure(null);
    try {
      await simulatePendingPayment(pending.data._id);
      await refreshAfterPayment(queryClient);
      onClose();
      navigate(`~/thank-you-for-order?order=${encodeURIComponent(pending.data._id)}`);
    } catch (error) {
      setConfirming(false);
      const text = paymentErrorText(t, error);
      setFailure(text);
      toast.error(text);
    }
  }

  return (
    <Dialog open onClose={onClose} size="sm" title={t('paypal.title')}
      footer={pending ? (
        <>
          <Button variant="secondary" onClick={onClose} disabled={confirming}>{t('paypal.back')}</Button>
          <Button onClick={() => void completeSandbox()} busy={confirming}>{t('paypal.sandboxConfirm')}</Button>
        </>
      ) : undefined}>
      {pending ? (
        <div className="pay-paypal" data-testid="paypal-sandbox">
          <p className="pay-sandbox-note">{t('paypal.sandboxNote')}</p>
          <dl className="pay-facts">
            <div><dt>{t('paypal.item')}</dt><dd>{pending.data.description}</dd></div>
            <div><dt>{t('paypal.amount')}</dt><dd data-testid="paypal-amount">{formatUsd(pending.data.amount)}</dd></div>
            <div><dt>{t('paypal.receiver')}</dt><dd>{pending.form.fields.business ?? '—'}</dd></div>
          </dl>
          {failure ? <p className="field__error" role="alert">{failure}</p> : null}
        </div>
      ) : (
        <div className="pay-loading"><Spinner size={24} label={t('paypal.redirecting')} /><span aria-hidden="true">{t('paypal.redirecting')}</span></div>
      )}
    </Dialog>
  );
}
