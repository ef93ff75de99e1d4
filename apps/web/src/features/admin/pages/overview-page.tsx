import { useId, useState } from 'react';
import { Link } from 'wouter';
import { parseMinor } from '../../../lib/money';
import { useT } from '../../../lib/i18n';
import { dateTime } from '../../../lib/dates';
import { useOverview } from '../api/overview';
import { BarChart } from '../components/bar-chart';
import { PageTitle } from '../components/page-title';
import { EmptyRow, QueryView } from '../components/query-view';
import { count, shortDate, usd } from '../lib/format';

const PERIODS = [7, 30, 90, 365] as const;

/** Revenue by day and by method, active ports, free stock, ports expiring this week. */
export function OverviewPage() {
  const { t, language } = useT(['admin', 'common']);
  const [days, setDays] = useState<number>(30);
  const periodId = useId();
  const overview = useOverview(days);
  return (
    <>
      <PageTitle
        title={t('nav.overview')}
        actions={(
          <div className="field admin-inline-field">
            <label htmlFor={periodId}>{t('overview.period')}</label>
            <select id={periodId} value={days} onChange={(e) => setDays(Number(e.target.value))}>
              {PERIODS.map((d) => <option key={d} value={d}>{t('overview.lastDays', { count: d })}</option>)}
            </select>
          </div>
        )}
      />
      <QueryView query={overview}>
        {(data) => (
          <>
            <div className="admin-stats">
              <Stat label={t('overview.revenue', { count: data.days })} value={usd(data.totalRevenue)} hint={t('overview.revenueHint')} />
              <Stat label={t('overview.balanceSpending')} value={usd(data.balanceSpending.amount)}
                hint={t('overview.balanceSpendingHint', { count: data.balanceSpending.count })} />
              <Stat label={t('overview.activePorts')} value={count(data.activePorts, language)} />
              <Stat label={t('overview.freeStock')} value={count(data.freeStock, language)} />
              <Stat label={t('overview.replacementsQueued')} value={count(data.replacements.queued, language)}
                hint={t('overview.replacementsHint', { count: data.replacements.maintenance })} />
              <Stat label={t('overview.expiringThisWeek')} value={count(data.expiringThisWeek.count, language)} />
              <Stat label={t('overview.customers')} value={count(data.customers.total, language)} hint={t('overview.newCustomers', { count: data.customers.newInPeriod })} />
            </div>
            <section className="card admin-section" aria-labelledby="overview-by-day">
              <h2 id="overview-by-day">{t('overview.byDay')}</h2>
              <BarChart
                title={t('overview.byDay')}
                summary={t('overview.byDaySummary', { total: usd(data.totalRevenue), count: data.days })}
                labelHeader={t('overview.day')}
                valueHeader={t('overview.amount')}
                extraHeader={t('overview.payments')}
                data={data.revenueByDay.map((d) => ({
                  key: d.date, label: shortDate(d.date, language), value: parseMinor(d.amount) ?? 0n, display: usd(d.amount), extra: String(d.count),
                }))}
              />
            </section>
            <section className="card admin-section" aria-labelledby="overview-by-method">
              <h2 id="overview-by-method">{t('overview.byMethod')}</h2>
              {data.revenueByMethod.length === 0 ? <p className="admin-muted">{t('overview.noRevenue')}</p> : (
                <BarChart
                  title={t('overview.byMethod')}
                  summary={data.revenueByMethod.map((m) => `${t(`providers.${m.provider}`, { defaultValue: m.provider })}: ${usd(m.amount)}`).join('; ')}
                  labelHeader={t('overview.method')}
                  valueHeader={t('overview.amount')}
                  extraHeader={t('overview.payments')}
                  data={data.revenueByMethod.map((m) => ({
                    key: m.provider, label: t(`providers.${m.provider}`, { defaultValue: m.provider }), value: parseMinor(m.amount) ?? 0n,
                    display: usd(m.amount), extra: String(m.count),
                  }))}
                />
              )}
            </section>
            <section className="card admin-section" aria-labelledby="overview-expiring">
              <h2 id="overview-expiring">{t('overview.expiringThisWeek')}</h2>
              <div className="admin-table-wrap" tabIndex={0}>
                <table className="admin-table">
                  <thead>
                    <tr><th scope="col">{t('fields.port')}</th><th scope="col">{t('fields.customer')}</th><th scope="col">{t('fields.expiresAt')}</th><th scope="col">{t('fields.autoRenew')}</th></tr>
                  </thead>
                  <tbody>
                    {data.expiringThisWeek.items.length === 0 ? <EmptyRow colSpan={4}>{t('overview.noneExpiring')}</EmptyRow> : null}
                    {data.expiringThisWeek.items.map((p) => (
                      <tr key={p.id}>
                        <td>{p.name}</td>
                        <td><Link href={`/customers/${p.userId}`}>{p.email}</Link></td>
                        <td>{dateTime(p.expiresAt, language)}</td>
                        <td>{p.autoRenew ? t('yes') : t('no')}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          </>
        )}
      </QueryView>
    </>
  );
}

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="card admin-stat">
      <p className="admin-stat__label">{label}</p>
      <p className="admin-stat__value">{value}</p>
      {hint ? <p className="admin-stat__hint">{hint}</p> : null}
    </div>
  );
}
