import { ADDING_PROXY_BANNER_MS, PENDING_CRYPTO_POLL_MS } from '@cellport/shared/constants';
import type { ActiveCryptoPaymentResponse } from '@cellport/shared/schemas/payments';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n';
import { formatUsd } from '../../../lib/money';
import { pendingCryptoPaymentStore, usePendingCryptoPaymentStore } from '../../../store/pending-crypto-payment';
import { pollActiveCryptoPayment } from '../api/poll-active-crypto-payment';
import { startPayment, usePaymentFlow } from '../flow/payment-flow-store';
import { refreshAfterPayment } from '../flow/refresh-after-payment';

const ACTIVE_QUERY_KEY = ['pending-crypto-active'];
type ActiveAnswer = { requestedAt: number; payment: ActiveCryptoPaymentResponse['data'] };

/**
 * The shell's pending crypto payment indicator (spec §2, §4). GET /pending-crypto-payment-active every 5 s keeps
 * the store's pending_crypto_payment in step with the server; a payment that was active and is gone has completed
 * (or expired), so the balance and the ports are fetched again at once. The poll sends the last ETag; a 304
 * (nothing changed, answered by the server from memory) keeps the previous answer as it is. A payment just
 * created shows 'Adding proxy' for 8 s first. Clicking the indicator reopens the crypto modal.
 */
export function PendingCryptoIndicator() {
  const { t } = useT('payments');
  const queryClient = useQueryClient();
  const payment = usePendingCryptoPaymentStore((s) => s.pendingCryptoPayment);
  const createdAt = usePaymentFlow((s) => s.cryptoCreatedAt);
  const requestedAt = useRef(0);
  const etag = useRef<string | null>(null);
  const active = useQuery({
    queryKey: ACTIVE_QUERY_KEY,
    queryFn: async (): Promise<ActiveAnswer> => {
      const at = Date.now();
      const previous = queryClient.getQueryData<ActiveAnswer>(ACTIVE_QUERY_KEY);
      // The ETag only means something next to the answer it came with.
      const result = await pollActiveCryptoPayment(previous ? etag.current : null);
      // Unchanged: the same answer object, so the effect below does nothing.
      if (!result.changed) return previous!;
      etag.current = result.etag;
      return { requestedAt: at, payment: result.payment };
    },
    refetchInterval: PENDING_CRYPTO_POLL_MS,
  });

  useEffect(() => {
    const answer = active.data;
    if (!answer || answer.requestedAt <= requestedAt.current) return;
    requestedAt.current = answer.requestedAt;
    const store = pendingCryptoPaymentStore.getState();
    const current = store.pendingCryptoPayment;
    // An answer asked for before this tab created its payment says nothing about that payment.
    if (current && createdAt && answer.requestedAt < createdAt) return;
    if (answer.payment) {
      if (current?._id === answer.payment._id) store.update(answer.payment.data);
      else store.add(answer.payment);
    } else if (current) {
      store.cancel();
      void refreshAfterPayment(queryClient);
    }
  }, [active.data, createdAt, queryClient]);

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
