import { PORT_LIMITS, type OverQuotaAction, type TariffLimits, type TariffLimitsRequest } from '@cellport/shared/schemas/port-limits';

// The tariff form's per-port limits (issue 18): text fields as typed, checked against the same ranges as the
// server's schema (packages/shared port-limits.ts), so the operator sees which field is wrong before saving.

export interface LimitsDraft {
  bandwidthMbps: string; maxConnections: string; monthlyQuotaGb: string; overQuota: OverQuotaAction; overQuotaMbps: string;
}
/** Which message a field shows: the locale key under admin `catalog.limitErrors`. */
export type LimitError = 'mbps' | 'connections' | 'quota' | 'throttle';
export type LimitsErrors = Partial<Record<keyof LimitsDraft, LimitError>>;

const text = (n: number | null) => (n === null ? '' : String(n));

export const limitsDraft = (l: TariffLimits | null): LimitsDraft => ({
  bandwidthMbps: text(l?.bandwidthMbps ?? null),
  maxConnections: String(l?.maxConnections ?? PORT_LIMITS.defaultMaxConnections),
  monthlyQuotaGb: text(l?.monthlyQuotaGb ?? null),
  overQuota: l?.overQuota ?? 'block',
  overQuotaMbps: text(l?.overQuotaMbps ?? null),
});

/** A whole number in 1..max, null for an empty field when `optional`, undefined when it is not one. */
function whole(value: string, max: number, optional: boolean): number | null | undefined {
  const v = value.trim().replace(/[\s,_]/g, '');
  if (v === '') return optional ? null : undefined;
  if (!/^\d+$/.test(v)) return undefined;
  const n = Number(v);
  return n >= 1 && n <= max ? n : undefined;
}

/** The request's limits, or the errors per field. The throttle rate is asked for only when the tariff throttles. */
export function parseLimits(d: LimitsDraft): { ok: true; value: TariffLimitsRequest } | { ok: false; errors: LimitsErrors } {
  const errors: LimitsErrors = {};
  const bandwidthMbps = whole(d.bandwidthMbps, PORT_LIMITS.maxMbps, true);
  if (bandwidthMbps === undefined) errors.bandwidthMbps = 'mbps';
  const maxConnections = whole(d.maxConnections, PORT_LIMITS.maxConnections, false);
  if (maxConnections === undefined || maxConnections === null) errors.maxConnections = 'connections';
  const monthlyQuotaGb = whole(d.monthlyQuotaGb, PORT_LIMITS.maxQuotaGb, true);
  if (monthlyQuotaGb === undefined) errors.monthlyQuotaGb = 'quota';
  const throttles = d.overQuota === 'throttle';
  const overQuotaMbps = throttles ? whole(d.overQuotaMbps, PORT_LIMITS.maxMbps, false) : whole(d.overQuotaMbps, PORT_LIMITS.maxMbps, true) ?? null;
  if (throttles && (overQuotaMbps === undefined || overQuotaMbps === null)) errors.overQuotaMbps = d.overQuotaMbps.trim() ? 'mbps' : 'throttle';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      bandwidthMbps: bandwidthMbps ?? null, maxConnections: maxConnections!, monthlyQuotaGb: monthlyQuotaGb ?? null,
      overQuota: d.overQuota, overQuotaMbps: overQuotaMbps ?? null,
    },
  };
}

type Translate = (key: string, vars?: Record<string, string | number>) => string;

/**
 * One line for the tariffs table: "20 Mbit/s · 50 connections · 100 GB a month, then blocked". The connection limit is
 * always there (every tariff has one, 200 by default), so the line never says "None" of a tariff that limits.
 */
export function limitsSummary(l: TariffLimits, t: Translate): string {
  const parts: string[] = [];
  if (l.bandwidthMbps !== null) parts.push(t('catalog.limitsMbps', { mbps: l.bandwidthMbps }));
  parts.push(t('catalog.limitsConnections', { count: l.maxConnections }));
  if (l.monthlyQuotaGb !== null) {
    const after = l.overQuota === 'throttle' && l.overQuotaMbps !== null ? t('catalog.limitsMbps', { mbps: l.overQuotaMbps }) : t('catalog.afterBlock');
    parts.push(t('catalog.limitsQuota', { gb: l.monthlyQuotaGb, after }));
  }
  return parts.join(' · ');
}
