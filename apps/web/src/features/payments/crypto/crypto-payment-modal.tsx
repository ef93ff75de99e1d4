import type { Coin } from '@cellport/shared/constants';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { dateTime, relativeTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { formatCoin, formatUsd, parseMoneyInput } from '../../../lib/money';
import { toast } from '../../../lib/toast';
import { pendingCryptoPaymentStore, usePendingCryptoPaymentStore } from '../../../store/pending-crypto-payment';
import { pendingPaymentsStore } from '../../../store/pending-payments';
import { useSettings } from '../../../store/settings';
import { cancelPendingPayment, createCryptoPayment, simulatePendingPayment } from '../api/crypto-payments';
import { paymentFlowStore } from '../flow/payment-flow-store';
import type { PaymentOrder } from '../flow/payment-order';
import { refreshAfterPayment } from '../flow/refresh-after-payment';
import { btcForModal } from '../lib/amounts';
import { rateNote } from '../lib/rate-note';
import { paymentErrorText } from '../lib/error-text';
import { productLine } from '../lib/product-line';
import { AddressQr } from './address-qr';

/**
 * The crypto payment modal of spec §2 and §4. Opened with an order, it creates the pending crypto payment (the
 * server keeps one per customer and cancels the previous one) and stores it; opened without one (the shell's
 * indicator), it shows the active payment. Create and cancel errors are error toasts and close the modal.
 */
export function CryptoPaymentModal({ order, coin, onClose }: { order: PaymentOrder | null; coin: Coin | null; onClose: () => void }) {
  const { t, language } = useT(['payments', 'errors']);
  const payment = usePendingCryptoPaymentStore((s) => s.pendingCryptoPayment);
  const simulate = useSettings().simulatePayments === true;
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState<'cancel' | 'simulate' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const created = useRef(false);

  useEffect(() => {
    // StrictMode runs effects twice in development: one order creates one payment.
    if (created.current) return;
    created.current = true;
    if (!order || !coin) {
      if (!pendingCryptoPaymentStore.getState().pendingCryptoPayment) onClose();
      return;
    }
    pendingCryptoPaymentStore.getState().cancel();
    createCryptoPayment(order, coin).then(
      (data) => {
        pendingCryptoPaymentStore.getState().add(data);
        paymentFlowStore.getState().markCryptoCreated();
        void queryClient.invalidateQueries({ queryKey: ['pending-payments'] });
      },
      (error) => { toast.error(paymentErrorText(t, error)); onClose(); },
    );
  }, [order, coin, onClose, queryClient, t]);

  async function cancel() {
    if (!payment) return;
    setBusy('cancel');
    try {
      await cancelPendingPayment(payment._id);
      pendingCryptoPaymentStore.getState().cancel();
      pendingPaymentsStore(queryClient).cancel(payment._id);
      void queryClient.invalidateQueries({ queryKey: ['pending-payments'] });
      toast.info(t('crypto.cancelled'));
    } catch (error) {
      toast.error(paymentErrorText(t, error));
    }
    onClose();
  }

  async function simulatePayment() {
    if (!payment) return;
    setBusy('simulate');
    setFailure(null);
    try {
      await simulatePendingPayment(payment._id);
      pendingCryptoPaymentStore.getState().cancel();
      pendingPaymentsStore(queryClient).cancel(payment._id);
      await refreshAfterPayment(queryClient);
      toast.success(t('crypto.received'));
      onClose();
      if (payment.kind !== 'topup') navigate(`~/${language}/proxies`);
    } catch (error) {
      setBusy(null);
      const text = paymentErrorText(t, error);
      setFailure(text);
      toast.error(text);
    }
  }

  const ready = payment && payment.status === 'pending';
  const usd = ready ? formatUsd(payment.data.amount) : null;
  const sendAmount = !ready ? '' : payment.coin === 'btc'
    ? t('crypto.amountBtc', { usd, btc: btcForModal(payment.data.amountBTC) ?? '—' })
    : t('crypto.amountUsdt', { usdt: formatCoin(payment.data.amount, 'usdt') });
  // Which BTC rate the amount was locked at, when that matters: the sandbox's fixed one, or a stale one with its age.
  const note = ready ? rateNote(payment.data, payment.createdAt) : null;
  // The rate's decimal string read by string math (a ticker may give more decimals than cents: cut them off).
  const usdPerBtc = note ? formatUsd(parseMoneyInput(note.usd.replace(/(\.\d{0,6})\d*$/, '$1').replace(/\.$/, ''))) ?? `$${note.usd}` : null;

  return (
    // A top-up credits the balance; a purchase or renewal is completed by the deposit and leaves the balance as it is.
    <Dialog open onClose={onClose} size="sm" title={t('crypto.title')}
      description={t((order?.kind ?? payment?.kind ?? 'topup') === 'topup' ? 'crypto.description' : 'crypto.descriptionOrder')}>
      {!ready ? (
        <div className="pay-loading"><Spinner size={24} label={t('crypto.creating')} /><span aria-hidden="true">{t('crypto.creating')}</span></div>
      ) : (
        <div className="pay-crypto" data-testid="crypto-modal">
          <p className="pay-crypto__product" data-testid="crypto-product">{productLine(t, language, payment)}</p>
          <p className="pay-crypto__send" data-testid="crypto-send">{t('crypto.send', { amount: sendAmount })}</p>
          {note ? (
            <p className="pay-crypto__rate" data-testid="crypto-rate">
              {note.kind === 'sandbox'
                ? t('crypto.rateSandbox', { rate: usdPerBtc })
                : t('crypto.rateStale', { rate: usdPerBtc, age: relativeTime(note.at, language), date: dateTime(note.at, language) })}
            </p>
          ) : null}
          <div className="pay-crypto__address-row">
            <AddressQr value={payment.data.address} label={t('crypto.qr', { coin: t(`coin.${payment.coin}`) })} />
            <div className="pay-crypto__address">
              <span className="pay-crypto__address-label" id="deposit-address-label">{t('crypto.address', { coin: t(`coin.${payment.coin}`) })}</span>
              <code className="pay-crypto__address-value" aria-labelledby="deposit-address-label" data-testid="deposit-address">{payment.data.address}</code>
              <CopyButton value={payment.data.address} label={t('crypto.copy')} />
            </div>
          </div>
          <p className="pay-crypto__status" role="status">
            <span className="pay-dot" aria-hidden="true" />
            {t('crypto.status')}
          </p>
          {simulate ? (
            <div className="pay-sandbox">
              <p>{t('crypto.sandboxNote')}</p>
              <Button variant="secondary" busy={busy === 'simulate'} disabled={busy !== null} onClick={() => void simulatePayment()}>
                {t('crypto.simulate')}
              </Button>
            </div>
          ) : null}
          {failure ? <p className="field__error" role="alert">{failure}</p> : null}
          <div className="pay-crypto__footer">
            <Button variant="link" className="pay-cancel-link" busy={busy === 'cancel'} disabled={busy !== null} onClick={() => void cancel()}>
              {t('crypto.cancel')}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
