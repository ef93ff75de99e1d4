import { ADDING_PROXY_BANNER_MS, PENDING_CRYPTO_POLL_MS } from '@cellport/shared/constants';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n';
import { formatUsd } from '../../../lib/money';
import { pendingCryptoPaymentStore, usePendingCryptoPaymentStore } from '../../../store/pending-crypto-payment';
import { pollActiveCryptoPayment } from '../api/poll-active-crypto-payment';
import { paymentFlowStore, startPayment, usePaymentFlow } from '../flow/payment-flow-store';
import { refreshAfterPayment } from '../flow/refresh-after-payment';

const ACTIVE_QUERY_KEY = ['pending-crypto-active'];

/**
 * The shell's pending crypto payment indicator (spec §2, §4). GET /pending-crypto-payment-active every 5 s keeps
 * the store's pending_crypto_payment in step with the server; a payment that was active and is gone has completed
 * (or expired), so the balance and the ports are fetched again at once. The poll sends the last ETag; a 304
 * (nothing changed, answered by the server from memory) changes nothing. A payment just created shows 'Adding
 * proxy' for 8 s first. Clicking the indicator reopens the crypto modal. The poll's cache entry keeps only when the
 * last changed answer was asked for; the payment itself has one home, the store (decision 020).
 */
export function PendingCryptoIndicator() {
  const { t } = useT('payments');
  const queryClient = useQueryClient();
  const payment = usePendingCryptoPaymentStore((s) => s.pendingCryptoPayment);
  const createdAt = usePaymentFlow((s) => s.cryptoCreatedAt);
  const etag = useRef<string | null>(null);
  useQuery({
    queryKey: ACTIVE_QUERY_KEY,
    queryFn: async (): Promise<number> => {
      const at = Date.now();
      const previous = queryClient.getQueryData<number>(ACTIVE_QUERY_KEY);
      // The ETag only means something next to the answer it came with.
      const result = await pollActiveCryptoPayment(previous !== undefined ? etag.current : null);
      if (!result.changed) return previous!;
      etag.current = result.etag;
      const store = pendingCryptoPaymentStore.getState();
      const current = store.pendingCryptoPayment;
      const created = paymentFlowStore.getState().cryptoCreatedAt;
      // An answer asked for before this tab created its payment says nothing about that payment.
      if (current && created && at < created) return at;
      if (result.payment) {
        if (current?._id === result.payment._id) store.update(result.payment.data);
        else store.add(result.payment);
      } else if (current) {
        store.cancel();
        void refreshAfterPayment(queryClient);
      }
      return at;
    },
    refetchInterval: PENDING_CRYPTO_POLL_MS,
  });

  const [now, setNow] = useState(() => Date.now());
  const adding = createdAt !== null && now - createdAt < ADDING_PROXY_BANNER_MS;
  useEffect(() => {
    if (!adding || createdAt === null) return;
    const timer = setTimeout(() => setNow(Date.now()), createdAt + ADDING_PROXY_BANNER_MS - Date.now() + 20);
    return () => clearTimeout(timer);
  }, [adding, createdAt]);
  useEffect(() => { setNow(Date.now()); }, [createdAt]);

  if (!payment || payment.status !== 'pending') return null;
  const amount = formatUsd(payment.data.amount);
  if (adding) {
    return (
      <span className="pending-crypto pending-crypto--adding" data-testid="pending-crypto-adding">
        <Spinner size={14} label={t(payment.kind === 'topup' ? 'indicator.addingFunds' : 'indicator.addingProxy')} />
        <span className="pending-crypto__text" aria-hidden="true">{t(payment.kind === 'topup' ? 'indicator.addingFunds' : 'indicator.addingProxy')}</span>
      </span>
    );
  }
  return (
    <button type="button" className="pending-crypto" data-testid="pending-crypto-indicator"
      aria-label={t('indicator.pendingLabel', { amount, coin: t(`coin.${payment.coin}`) })}
      onClick={() => startPayment({ method: 'crypto', order: null })}>
      <span className="pay-dot" aria-hidden="true" />
      <span className="pending-crypto__text">{t('indicator.pending', { amount })}</span>
    </button>
  );
}
