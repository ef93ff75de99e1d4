import type { AdminPaymentDetailResponse } from '@cellport/shared/schemas/admin/payments';
import { useState } from 'react';
import { Link } from 'wouter';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { dateTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { parseMinor, parseMoneyInput } from '../../../lib/money';
import { completePayment, refundPayment, usePayment } from '../api/payments';
import { useAdminMutation } from '../api/use-admin-mutation';
import { ConfirmDialog } from '../components/confirm-dialog';
import { PageTitle } from '../components/page-title';
import { EmptyRow, QueryView } from '../components/query-view';
import { PaymentStatusBadge } from '../components/payment-status-badge';
import { coinAmount, usd } from '../lib/format';

/** One payment: what, who, provider details, its ledger entries and refunds; refund it or complete it by hand. */
export function PaymentDetailPage({ id }: { id: string }) {
  const { t } = useT('admin');
  const payment = usePayment(id);
  return (
    <>
      <p className="admin-back"><Link href="/payments">← {t('payments.back')}</Link></p>
      <QueryView query={payment}>{(data) => <PaymentDetail data={data} />}</QueryView>
    </>
  );
}

function PaymentDetail({ data }: { data: AdminPaymentDetailResponse }) {
  const { t, language } = useT('admin');
  const p = data.payment;
  const [refunding, setRefunding] = useState(false);
  const [completing, setCompleting] = useState(false);
  const [amount, setAmount] = useState('');
  const [to, setTo] = useState<'source' | 'balance' | ''>('');
  const [amountTouched, setAmountTouched] = useState(false);
  const refundable = (parseMinor(p.amount) ?? 0n) - (parseMinor(p.refunded) ?? 0n);
  const refundMinor = amount.trim() ? parseMoneyInput(amount, 'usdt') : refundable;
  const amountError = amountTouched && (refundMinor === null || refundMinor > refundable) ? t('payments.refundAmountError', { max: usd(refundable.toString()) }) : undefined;
  const refund = useAdminMutation(refundPayment, { successKey: 'payments.refunded', onSuccess: () => setRefunding(false) });
  const complete = useAdminMutation(completePayment, { successKey: 'payments.completed', onSuccess: () => setCompleting(false) });
  const canRefund = p.status === 'completed' && refundable > 0n && data.refunds.length === 0;
  return (
    <>
      <PageTitle
        title={t('payments.title', { amount: usd(p.amount) })}
        description={p.description}
        actions={(
          <>
            {canRefund ? <Button variant="danger" onClick={() => { setAmount(''); setTo(''); setAmountTouched(false); setRefunding(true); }}>{t('payments.refund')}</Button> : null}
            {p.status === 'pending' ? <Button onClick={() => setCompleting(true)}>{t('payments.complete')}</Button> : null}
          </>
        )}
      />
      <section className="card admin-section" aria-labelledby="payment-summary">
        <h2 id="payment-summary">{t('payments.summary')}</h2>
        <dl className="admin-dl">
          <dt>{t('fields.status')}</dt><dd><PaymentStatusBadge status={p.status} /></dd>
          <dt>{t('fields.customer')}</dt><dd><Link href={`/customers/${p.userId}`}>{p.email}</Link></dd>
          <dt>{t('fields.provider')}</dt><dd>{t(`providers.${p.provider}`, { defaultValue: p.provider })}</dd>
          <dt>{t('fields.kind')}</dt><dd>{t(`paymentKinds.${p.kind}`, { defaultValue: p.kind })}</dd>
          <dt>{t('fields.amount')}</dt><dd>{usd(p.amount)} <span className="admin-muted">{p.currency}</span></dd>
          <dt>{t('fields.discount')}</dt><dd>{usd(p.discount)}{p.coupon ? ` (${p.coupon})` : ''}</dd>
          <dt>{t('payments.refundedLabel')}</dt><dd>{usd(p.refunded)}</dd>
          <dt>{t('fields.ports')}</dt><dd>{data.ports.length ? data.ports.map((port) => port.name).join(', ') : p.modemCount || '—'}</dd>
          <dt>{t('fields.createdAt')}</dt><dd>{dateTime(p.createdAt, language)}</dd>
          <dt>{t('fields.id')}</dt><dd className="mono admin-wrap">{p.id}</dd>
        </dl>
      </section>
      <section className="card admin-section" aria-labelledby="payment-details">
        <h2 id="payment-details">{t('payments.providerDetails')}</h2>
        {Object.keys(data.details).length === 0 ? <p className="admin-muted">{t('payments.noDetails')}</p> : (
          <dl className="admin-dl">
            {Object.entries(data.details).map(([key, value]) => (
              <div key={key} className="admin-dl__pair"><dt className="mono">{key}</dt><dd className="mono admin-wrap">{typeof value === 'string' ? value : JSON.stringify(value)}</dd></div>
            ))}
          </dl>
        )}
      </section>
      <section className="card admin-section" aria-labelledby="payment-refunds">
        <h2 id="payment-refunds">{t('payments.refunds')}</h2>
        <div className="admin-table-wrap" tabIndex={0}>
          <table className="admin-table">
            <thead><tr><th scope="col">{t('fields.date')}</th><th scope="col">{t('fields.amount')}</th><th scope="col">{t('payments.method')}</th><th scope="col">{t('fields.reason')}</th></tr></thead>
            <tbody>
              {data.refunds.length === 0 ? <EmptyRow colSpan={4}>{t('payments.noRefunds')}</EmptyRow> : null}
              {data.refunds.map((r) => (
                <tr key={r.id}>
                  <td>{dateTime(r.createdAt, language)}</td><td className="num">{usd(r.amount)}</td>
                  <td>{t(`refundMethods.${r.method}`)}{r.providerRef ? <span className="admin-muted mono"> {r.providerRef}</span> : null}</td>
                  <td className="admin-wrap">{r.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section className="card admin-section" aria-labelledby="payment-ledger">
        <h2 id="payment-ledger">{t('customers.ledger')}</h2>
        <div className="admin-table-wrap" tabIndex={0}>
          <table className="admin-table">
            <thead><tr><th scope="col">{t('fields.date')}</th><th scope="col">{t('fields.kind')}</th><th scope="col">{t('fields.amount')}</th><th scope="col">{t('fields.reference')}</th></tr></thead>
            <tbody>
              {data.ledger.length === 0 ? <EmptyRow colSpan={4}>{t('customers.noLedger')}</EmptyRow> : null}
              {data.ledger.map((e) => (
                <tr key={e.id}>
                  <td>{dateTime(e.createdAt, language)}</td><td>{t(`ledgerKinds.${e.kind}`, { defaultValue: e.kind })}</td>
                  <td className="num">{coinAmount(e.amount, e.coin)}</td><td className="admin-wrap">{e.reference}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <ConfirmDialog
        open={refunding}
        title={t('payments.refundTitle')}
        description={t('payments.refundText', { amount: usd(refundable.toString()), email: p.email })}
        confirmLabel={t('payments.refund')}
        reason="required"
        danger
        busy={refund.isPending}
        onConfirm={(reason) => {
          setAmountTouched(true);
          if (refundMinor === null || refundMinor > refundable) return;
          refund.mutate({ id: p.id, reason, ...(amount.trim() ? { amount: refundMinor.toString() } : {}), ...(to ? { to } : {}) });
        }}
        onClose={() => setRefunding(false)}
      >
        <TextField label={t('payments.refundAmount')} value={amount} inputMode="decimal" onChange={(e) => setAmount(e.target.value)}
          hint={t('payments.refundAmountHint', { max: usd(refundable.toString()) })} error={amountError} />
        {p.provider !== 'balance' ? (
          <fieldset className="admin-fieldset">
            <legend>{t('payments.refundTo')}</legend>
            {(['', 'source', 'balance'] as const).map((value) => (
              <label key={value || 'default'} className="admin-check">
                <input type="radio" name="refund-to" value={value} checked={to === value} onChange={() => setTo(value)} />
                {' '}{t(`payments.refundTo_${value || 'default'}`)}
              </label>
            ))}
          </fieldset>
        ) : null}
      </ConfirmDialog>
      <ConfirmDialog
        open={completing}
        title={t('payments.completeTitle')}
        description={t('payments.completeText', { amount: usd(p.amount), email: p.email })}
        confirmLabel={t('payments.complete')}
        reason="required"
        busy={complete.isPending}
        onConfirm={(reason) => complete.mutate({ id: p.id, reason })}
        onClose={() => setCompleting(false)}
      />
    </>
  );
}
