import type { PortQuota } from '@cellport/shared/schemas/traffic';
import { useId } from 'react';
import { htmlLang, useT } from '../../../lib/i18n';
import { limitsText, quotaView } from '../lib/quota';
import './quota-meter.css';

/**
 * A port's traffic this month against its quota (issue 18, item 3): a bar exposed as a meter, whose value text is
 * the same sentence shown under it, what happens once the quota is used up, and the port's limits.
 */
export function QuotaMeter({ quota, showLimits = true }: { quota: PortQuota; showLimits?: boolean }) {
  const { t, language } = useT('traffic');
  const labelId = useId();
  const view = quotaView(quota, language);
  const resets = new Intl.DateTimeFormat(htmlLang(language), { day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(quota.resetsAt));
  const usedText = view.percent === null
    ? t('quota.usedNoQuota', { used: view.used })
    : t('quota.used', { used: view.used, quota: view.quota ?? '', percent: view.percent });
  const over = quota.state === 'blocked' ? t('quota.blocked', { date: resets })
    : quota.state === 'throttled' ? t('quota.throttled', { mbps: quota.limits.overQuotaMbps ?? 0, date: resets }) : null;
  return (
    <div className={`quota quota--${view.tone}`} data-testid="port-quota">
      <p className="quota__label" id={labelId}>{t('quota.title')}</p>
      {view.percent !== null ? (
        <div className="quota__bar" role="meter" aria-labelledby={labelId} aria-valuemin={0} aria-valuemax={100}
          aria-valuenow={view.fill} aria-valuetext={usedText}>
          <span className="quota__fill" style={{ width: `${view.fill}%` }} />
        </div>
      ) : null}
      <p className="quota__text">{usedText} · {t('quota.resets', { date: resets })}</p>
      {over ? <p className="quota__over">{over}</p> : null}
      {showLimits ? (
        <ul className="quota__limits" aria-label={t('quota.limitsLabel')}>
          {limitsText(quota.limits, t).map((text) => <li key={text}>{text}</li>)}
        </ul>
      ) : null}
    </div>
  );
}
