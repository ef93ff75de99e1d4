import type { AdminPort, CustomerDetailResponse } from '@cellport/shared/schemas/admin/customers';
import { useState } from 'react';
import { Link } from 'wouter';
import { Button } from '../../../components/ui/button';
import { dateTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { customerAction, useCustomer, type CustomerAction } from '../api/customers';
import { portAction, type PortAction } from '../api/ports';
import { SubscriptionsTable } from '../components/subscriptions-table';
import { useAdminMutation } from '../api/use-admin-mutation';
import { BalanceAdjustDialog } from '../components/balance-adjust-dialog';
import { ConfirmDialog } from '../components/confirm-dialog';
import { PageTitle } from '../components/page-title';
import { EmptyRow, QueryView } from '../components/query-view';
import { StatusBadge } from '../components/status-badge';
import { coinAmount, usd } from '../lib/format';
import { CustomerStatus } from './customers-page';

/** One customer: profile and balances, the operator's actions, then ports, payments, ledger, sessions, notifications. */
export function CustomerDetailPage({ id }: { id: string }) {
  const { t } = useT('admin');
  const customer = useCustomer(id);
  return (
    <>
      <p className="admin-back"><Link href="/customers">← {t('customers.back')}</Link></p>
      <QueryView query={customer}>{(data) => <CustomerDetail data={data} />}</QueryView>
    </>
  );
}

const ACTION_SUCCESS: Record<CustomerAction, string> = {
  deactivate: 'customers.deactivatedToast',
  reactivate: 'customers.reactivatedToast',
  'reset-2fa': 'customers.reset2faToast',
  'resend-confirmation': 'customers.resentToast',
};

function CustomerDetail({ data }: { data: CustomerDetailResponse }) {
  const { t, language } = useT('admin');
  const c = data.customer;
  const [pending, setPending] = useState<CustomerAction | null>(null);
  const [adjustOpen, setAdjustOpen] = useState(false);
  const action = useAdminMutation(customerAction, {
    successKey: (_r, vars) => ACTION_SUCCESS[vars.action],
    onSuccess: () => setPending(null),
  });
  const actionKey = pending === 'reset-2fa' ? 'reset2fa' : pending === 'resend-confirmation' ? 'resend' : pending;
  const [portPending, setPortPending] = useState<{ port: AdminPort; action: PortAction } | null>(null);
  const portMutation = useAdminMutation(portAction, {
    successKey: (_r, vars) => (vars.action === 'suspend' ? 'customers.suspendedToast' : 'customers.resumedToast'),
    onSuccess: () => setPortPending(null),
  });
  return (
    <>
      <PageTitle
        title={c.name || c.email}
        description={c.email}
        actions={(
          <>
            <Button variant="secondary" onClick={() => setAdjustOpen(true)}>{t('customers.adjust')}</Button>
            {c.uses2fa ? <Button variant="secondary" onClick={() => setPending('reset-2fa')}>{t('customers.reset2fa')}</Button> : null}
            {!c.isVerified ? <Button variant="secondary" onClick={() => setPending('resend-confirmation')}>{t('customers.resend')}</Button> : null}
            {c.isActive
              ? <Button variant="danger" onClick={() => setPending('deactivate')}>{t('customers.deactivate')}</Button>
              : <Button onClick={() => setPending('reactivate')}>{t('customers.reactivate')}</Button>}
          </>
        )}
      />
      <section className="card admin-section" aria-labelledby="customer-profile">
        <h2 id="customer-profile">{t('customers.profile')}</h2>
        <dl className="admin-dl">
          <dt>{t('fields.status')}</dt><dd><CustomerStatus active={c.isActive} verified={c.isVerified} /></dd>
          <dt>{t('fields.balance')}</dt><dd>{coinAmount(c.balances.usdt, 'usdt')} · {coinAmount(c.balances.btc, 'btc')}</dd>
          <dt>{t('fields.company')}</dt><dd>{c.companyName || '—'}</dd>
          <dt>{t('fields.language')}</dt><dd>{c.language}</dd>
          <dt>{t('fields.twoFactor')}</dt><dd>{c.uses2fa ? t('yes') : t('no')}</dd>
          <dt>{t('fields.marketing')}</dt><dd>{c.marketingConsent ? t('yes') : t('no')}</dd>
          <dt>{t('fields.purpose')}</dt><dd>{c.purpose || '—'}</dd>
          <dt>{t('fields.websites')}</dt><dd>{c.websiteWishlist || '—'}</dd>
          <dt>{t('fields.createdAt')}</dt><dd>{dateTime(c.createdAt, language)}</dd>
          <dt>{t('customers.accepted')}</dt>
          <dd>
            {data.legalAcceptances.length === 0 ? t('customers.acceptedNone') : (
              <ul className="admin-plain-list">
                {data.legalAcceptances.map((a) => (
                  <li key={a.kind}>{t('customers.acceptedItem', {
                    document: t(`legal.kinds.${a.kind}`), version: a.version, language: a.language, date: dateTime(a.acceptedAt, language),
                  })}</li>
                ))}
              </ul>
            )}
          </dd>
        </dl>
      </section>

      <Section
        id="customer-ports"
        title={t('fields.ports')}
        headers={[t('fields.port'), t('fields.status'), t('fields.ip'), t('fields.expiresAt'), t('fields.autoRenew'), t('fields.actions')]}
        empty={t('customers.noPorts')}
        note={!c.isActive && data.ports.some((p) => p.status !== 'released') ? t('customers.deactivatedNote') : undefined}
      >
        {data.ports.map((p) => (
          <tr key={p.id}>
            <td>{p.name}<span className="admin-muted"> · {p.proxyLogin}</span></td>
            <td>
              <span className="admin-badges">
                <StatusBadge tone={p.status === 'active' ? 'ok' : p.status === 'expired' ? 'warn' : 'neutral'}>{t(`portStatus.${p.status}`)}</StatusBadge>
                {p.suspendedAt ? (
                  <span title={t('customers.suspendedSince', { date: dateTime(p.suspendedAt, language) })}>
                    <StatusBadge tone="bad">{t('customers.suspended')}</StatusBadge>
                  </span>
                ) : null}
              </span>
            </td>
            <td className="mono">{p.extIp}</td>
            <td>{dateTime(p.expiresAt, language)}</td>
            <td>{p.autoRenew ? t('yes') : t('no')}</td>
            <td className="admin-actions">
              {p.suspendedAt ? (
                <Button size="sm" variant="secondary" onClick={() => setPortPending({ port: p, action: 'resume' })} aria-label={t('customers.resumeNamed', { name: p.name })}>
                  {t('customers.resume')}
                </Button>
              ) : p.status !== 'released' ? (
                <Button size="sm" variant="danger" onClick={() => setPortPending({ port: p, action: 'suspend' })} aria-label={t('customers.suspendNamed', { name: p.name })}>
                  {t('customers.suspend')}
                </Button>
              ) : null}
            </td>
          </tr>
        ))}
      </Section>

      <Section id="customer-payments" title={t('nav.payments')} headers={[t('fields.date'), t('fields.provider'), t('fields.amount'), t('fields.status'), t('fields.description')]} empty={t('customers.noPayments')}>
        {data.payments.map((p) => (
          <tr key={p.id}>
            <td><Link href={`/payments/${p.id}`}>{dateTime(p.createdAt, language)}</Link></td>
            <td>{t(`providers.${p.provider}`, { defaultValue: p.provider })}</td>
            <td className="num">{usd(p.amount)}</td>
            <td>{t(`paymentStatus.${p.status}`, { defaultValue: p.status })}</td>
            <td>{p.description}</td>
          </tr>
        ))}
      </Section>

      <section className="card admin-section" aria-labelledby="customer-subscriptions">
        <h2 id="customer-subscriptions">{t('nav.subscriptions')}</h2>
        <SubscriptionsTable filter={{ userId: c.id }} showCustomer={false} />
      </section>

      <Section id="customer-ledger" title={t('customers.ledger')} headers={[t('fields.date'), t('fields.kind'), t('fields.amount'), t('fields.reference')]} empty={t('customers.noLedger')}>
        {data.ledger.map((e) => (
          <tr key={e.id}>
            <td>{dateTime(e.createdAt, language)}</td>
            <td>{t(`ledgerKinds.${e.kind}`, { defaultValue: e.kind })}</td>
            <td className={`num ${e.amount.startsWith('-') ? 'admin-debit' : 'admin-credit'}`}>{coinAmount(e.amount, e.coin)}</td>
            <td className="admin-wrap">{e.reference}</td>
          </tr>
        ))}
      </Section>

      <Section id="customer-sessions" title={t('customers.sessions')} headers={[t('fields.ip'), t('fields.device'), t('fields.createdAt'), t('fields.lastSeen')]} empty={t('customers.noSessions')}>
        {data.sessions.map((s) => (
          <tr key={s.id}>
            <td className="mono">{s.ip}</td>
            <td className="admin-wrap">{s.userAgent}</td>
            <td>{dateTime(s.createdAt, language)}</td>
            <td>{dateTime(s.lastSeenAt, language)}</td>
          </tr>
        ))}
      </Section>

      <Section id="customer-notifications" title={t('nav.notifications')} headers={[t('fields.date'), t('fields.text'), t('fields.read')]} empty={t('customers.noNotifications')}>
        {data.notifications.map((n) => (
          <tr key={n.id}>
            <td>{dateTime(n.createdAt, language)}</td>
            <td className="admin-wrap">{n.text}</td>
            <td>{n.unread ? t('no') : t('yes')}</td>
          </tr>
        ))}
      </Section>

      <ConfirmDialog
        open={pending !== null}
        title={actionKey ? t(`customers.confirm.${actionKey}.title`) : ''}
        description={actionKey ? t(`customers.confirm.${actionKey}.text`, { email: c.email }) : ''}
        confirmLabel={actionKey ? t(`customers.confirm.${actionKey}.button`) : ''}
        danger={pending === 'deactivate' || pending === 'reset-2fa'}
        reason="optional"
        busy={action.isPending}
        onConfirm={(reason) => { if (pending) action.mutate({ id: c.id, action: pending, reason: reason || undefined }); }}
        onClose={() => setPending(null)}
      />
      <ConfirmDialog
        open={portPending !== null}
        title={portPending ? t(`customers.confirm.${portPending.action}.title`) : ''}
        description={portPending ? t(`customers.confirm.${portPending.action}.text`, { name: portPending.port.name, login: portPending.port.proxyLogin }) : ''}
        confirmLabel={portPending ? t(`customers.confirm.${portPending.action}.button`) : ''}
        danger={portPending?.action === 'suspend'}
        reason="optional"
        busy={portMutation.isPending}
        onConfirm={(reason) => { if (portPending) portMutation.mutate({ id: portPending.port.id, action: portPending.action, reason: reason || undefined }); }}
        onClose={() => setPortPending(null)}
      />
      {adjustOpen ? <BalanceAdjustDialog customerId={c.id} onClose={() => setAdjustOpen(false)} /> : null}
    </>
  );
}

function Section({ id, title, headers, empty, note, children }: {
  id: string; title: string; headers: string[]; empty: string; note?: string | undefined; children: React.ReactNode[];
}) {
  return (
    <section className="card admin-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {note ? <p className="admin-notice" role="note">{note}</p> : null}
      <div className="admin-table-wrap" tabIndex={0}>
        <table className="admin-table">
          <thead><tr>{headers.map((h) => <th key={h} scope="col">{h}</th>)}</tr></thead>
          <tbody>{children.length ? children : <EmptyRow colSpan={headers.length}>{empty}</EmptyRow>}</tbody>
        </table>
      </div>
    </section>
  );
}
