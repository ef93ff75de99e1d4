import { LIMITS_MESSAGES, type TariffLimits, type TariffLimitsRequest } from '@cellport/shared/schemas/port-limits';
import { AppError } from '../../lib/app-error.js';

/** The tariffs columns of its per-port limits (migration 2026_12_08_0200_port_limits). */
export interface TariffLimitColumns {
  bandwidth_mbps: number | null;
  max_connections: number;
  monthly_quota_gb: number | null;
  over_quota: 'throttle' | 'block';
  over_quota_mbps: number | null;
}

export const limitsToApi = (t: TariffLimitColumns): TariffLimits => ({
  bandwidthMbps: t.bandwidth_mbps, maxConnections: t.max_connections, monthlyQuotaGb: t.monthly_quota_gb,
  overQuota: t.over_quota, overQuotaMbps: t.over_quota_mbps,
});

/**
 * The columns after an operator's request: fields it leaves out keep `before` (a new tariff: the defaults). A
 * tariff that throttles needs its rate, whichever request gave it: refused with 400 naming the field, not left
 * to the table's check (a 500).
 */
export function limitsToColumns(req: TariffLimitsRequest | undefined, before: TariffLimitColumns | null): TariffLimitColumns {
  const base: TariffLimitColumns = before ?? { bandwidth_mbps: null, max_connections: 200, monthly_quota_gb: null, over_quota: 'block', over_quota_mbps: null };
  const next: TariffLimitColumns = {
    bandwidth_mbps: req?.bandwidthMbps !== undefined ? req.bandwidthMbps : base.bandwidth_mbps,
    max_connections: req?.maxConnections ?? base.max_connections,
    monthly_quota_gb: req?.monthlyQuotaGb !== undefined ? req.monthlyQuotaGb : base.monthly_quota_gb,
    over_quota: req?.overQuota ?? base.over_quota,
    over_quota_mbps: req?.overQuotaMbps !== undefined ? req.overQuotaMbps : base.over_quota_mbps,
  };
  if (next.over_quota === 'throttle' && next.over_quota_mbps === null) {
    throw new AppError('VALIDATION', 400, `limits.overQuotaMbps: ${LIMITS_MESSAGES.throttle}`);
  }
  return next;
}
