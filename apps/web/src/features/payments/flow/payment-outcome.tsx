import type { PendingPayment } from '@cellport/shared/schemas/payments';
import { ApiError } from '../../../lib/api';
import { useT } from '../../../lib/i18n';
import { formatUsd } from '../../../lib/money';

/** What the customer is told about one payment: each state said plainly, with what to do when it did not go through. */
export type PaymentOutcome = 'credited' | 'paid' | 'confirming' | 'cancelled' | 'expired' | 'failed';

export function outcomeOf(payment: PendingPayment): PaymentOutcome {
  switch (payment.status) {
    case 'completed': return payment.kind === 'topup' ? 'credited' : 'paid';
    case 'pending': return 'confirming';
    default: return payment.status;
  }
}

/** The heading and text of a payment's state; `data-outcome` lets tests and styles tell the states apart. */
export function PaymentOutcomeText({ payment, headingLevel = 2 }: { payment: PendingPayment; headingLevel?: 1 | 2 }) {
  const { t } = useT('payments');
  const outcome = outcomeOf(payment);
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const amount = formatUsd(payment.status === 'completed' ? payment.received : payment.amount) ?? '';
  return (
    <div className={`pay-outcome pay-outcome--${outcome}`} data-outcome={outcome} role="status">
      <Heading className="pay-outcome__title">{t(`outcome.${outcome}.title`)}</Heading>
      <p>{t(`outcome.${outcome}.text`, { amount, description: payment.description })}</p>
      {outcome === 'confirming' ? <span className="spinner pay-outcome__spinner" aria-hidden="true" /> : null}
    </div>
  );
}

/** Why a payment could not be shown: signed out, not this customer's, or the server unreachable. */
export function PaymentLookupError({ error }: { error: unknown }) {
  const { t } = useT('payments');
  const key = error instanceof ApiError && error.status === 401 ? 'signedOut' : error instanceof ApiError && error.status === 404 ? 'notFound' : 'unavailable';
  return <p role="alert" data-outcome={`lookup-${key}`}>{t(`outcome.lookup.${key}`)}</p>;
}
