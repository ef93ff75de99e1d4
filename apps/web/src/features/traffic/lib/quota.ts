import type { Language } from '@cellport/shared/constants';
import type { TariffLimits } from '@cellport/shared/schemas/port-limits';
import { PORT_LIMITS } from '@cellport/shared/schemas/port-limits-constants';
import type { PortQuota } from '@cellport/shared/schemas/traffic';
import { formatBytes, parseBytes } from '../../../lib/bytes';

// A port's traffic this month against its quota (issue 18, item 3), as Your Proxies and the Traffic page show it.

export interface QuotaView {
  /** Whole percent of the quota used (may pass 100); null without a quota. */
  percent: number | null;
  /** The bar's fill, 0–100. */
  fill: number;
  used: string;
  quota: string | null;
  tone: 'ok' | 'warn' | 'over';
}

export function quotaView(q: Pick<PortQuota, 'bytes' | 'quotaBytes' | 'state'>, language: Language): QuotaView {
  const used = parseBytes(q.bytes);
  const quota = q.quotaBytes === null ? null : parseBytes(q.quotaBytes);
  const percent = quota === null || quota === 0n ? null : Number((used * 100n) / quota);
  const tone = q.state !== 'ok' || (percent !== null && percent >= 100) ? 'over'
    : percent !== null && percent >= PORT_LIMITS.warnPercent ? 'warn' : 'ok';
  return {
    percent, fill: percent === null ? 0 : Math.min(100, percent), used: formatBytes(used, language),
    quota: quota === null ? null : formatBytes(quota, language), tone,
  };
}

type Translate = (key: string, vars?: Record<string, string | number>) => string;

/** The port's limits in words, one item each ("Up to 20 Mbit/s each way", "50 connections at once", ...). */
export function limitsText(l: TariffLimits, t: Translate): string[] {
  const parts = [l.bandwidthMbps === null ? t('limits.noCap') : t('limits.cap', { mbps: l.bandwidthMbps }), t('limits.connections', { count: l.maxConnections })];
  if (l.monthlyQuotaGb === null) parts.push(t('limits.noQuota'));
  else if (l.overQuota === 'throttle' && l.overQuotaMbps !== null) parts.push(t('limits.quotaThrottle', { gb: l.monthlyQuotaGb, mbps: l.overQuotaMbps }));
  else parts.push(t('limits.quotaBlock', { gb: l.monthlyQuotaGb }));
  return parts;
}
