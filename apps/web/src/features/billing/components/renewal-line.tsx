import type { Port } from '@cellport/shared/schemas/catalog';
import { CATALOG_LIMITS } from '@cellport/shared/schemas/catalog-constants';
import { useId } from 'react';
import { useT } from '../../../lib/i18n';
import { formatUsd } from '../../../lib/money';
import { dateTime, expiryState, relativeTime } from '../../../lib/dates';
import { PERIOD_CHOICES, defaultLine, linePrice, lineValid, type BasketLine } from '../lib/basket';

/**
 * One port as a row (a card on phones): the checkbox puts it in the basket, then periods or custom days choose
 * how long, and the line's price shows at once.
 */
export function RenewalLine({ port, line, onChange }: {
  port: Port;
  line: BasketLine | undefined;
  onChange: (line: BasketLine | undefined) => void;
}) {
  const { t, language } = useT('billing');
  const ids = { check: useId(), mode: useId(), periods: useId(), days: useId(), daysError: useId() };
  const expiry = expiryState(port.expiresAt);
  const chosen = line !== undefined;
  const current = line ?? defaultLine;
  const price = linePrice(port, current);
  const daysWrong = chosen && !lineValid(current);

  return (
    <tr className={`bl-row${chosen ? ' bl-row--chosen' : ''}${expiry !== 'ok' ? ` bl-row--${expiry}` : ''}`} data-testid="renewal-line">
      <td className="bl-cell bl-cell--check">
        <input id={ids.check} type="checkbox" checked={chosen} onChange={(e) => onChange(e.target.checked ? current : undefined)} />
      </td>
      <td className="bl-cell bl-cell--port">
        <label htmlFor={ids.check} className="bl-port">
          <strong>{port.modem_name}</strong>
          <span className="bl-muted">{port.country.name} · {port.carrier.name} · {port.tariffName[language] || port.tariffName.en}</span>
          <span className="bl-muted">{formatUsd(port.price)} / {t(`period.${port.period}`)}</span>
        </label>
      </td>
      <td className="bl-cell" data-label={t('table.expires')}>
        <span className={`bl-expiry bl-expiry--${expiry}`}>
          {expiry === 'soon' ? <span className="bl-flag">{t('soon')}</span> : expiry === 'expired' ? <span className="bl-flag">{t('expired')}</span> : null}
          {relativeTime(port.expiresAt, language)}
        </span>
        <span className="bl-muted bl-date">{dateTime(port.expiresAt, language)}</span>
      </td>
      <td className="bl-cell bl-cell--term" data-label={t('table.term')}>
        <div className="bl-term">
          <label htmlFor={ids.mode} className="visually-hidden">{t('term.modeFor', { name: port.modem_name })}</label>
          <select
            id={ids.mode} value={current.mode} disabled={!chosen}
            onChange={(e) => onChange({ ...current, mode: e.target.value as BasketLine['mode'] })}
          >
            <option value="periods">{t('term.periods')}</option>
            <option value="days">{t('term.days')}</option>
          </select>
          {current.mode === 'periods' ? (
            <>
              <label htmlFor={ids.periods} className="visually-hidden">{t('term.periodsFor', { name: port.modem_name })}</label>
              <select id={ids.periods} value={current.periods} disabled={!chosen} onChange={(e) => onChange({ ...current, periods: Number(e.target.value) })}>
                {PERIOD_CHOICES.map((n) => <option key={n} value={n}>{t(`term.count.${port.period}`, { count: n })}</option>)}
              </select>
            </>
          ) : (
            <>
              <label htmlFor={ids.days} className="visually-hidden">{t('term.daysFor', { name: port.modem_name })}</label>
              <input
                id={ids.days} type="number" inputMode="numeric" min={CATALOG_LIMITS.renewDaysMin} max={CATALOG_LIMITS.renewDaysMax}
                value={Number.isNaN(current.days) ? '' : current.days} disabled={!chosen} className="bl-days"
                aria-invalid={daysWrong} aria-describedby={daysWrong ? ids.daysError : undefined}
                // Kept as typed: 0 or 400 days is said to be wrong below, never quietly made 1 or 365.
                onChange={(e) => onChange({ ...current, days: Math.trunc(e.target.valueAsNumber) })}
              />
              <span className="bl-muted">{t('term.daysUnit')}</span>
              {daysWrong ? (
                <span id={ids.daysError} className="bl-short" role="alert">
                  {t('term.daysInvalid', { min: CATALOG_LIMITS.renewDaysMin, max: CATALOG_LIMITS.renewDaysMax })}
                </span>
              ) : null}
            </>
          )}
        </div>
      </td>
      <td className="bl-cell bl-cell--amount" data-label={t('table.amount')}>
        {chosen && price !== null ? <strong data-testid="line-price">{formatUsd(price)}</strong> : <span className="bl-muted">—</span>}
      </td>
    </tr>
  );
}
