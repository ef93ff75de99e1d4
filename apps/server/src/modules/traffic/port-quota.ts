import { PORT_LIMITS, quotaMonth } from '@cellport/shared/schemas/port-limits';
import { portNameText, type NotificationsService } from '../notifications/index.js';
import type { TrafficRepository } from './traffic.repository.js';

// Monthly quotas (issue 18, item 3; decision 030). After a traffic batch is recorded, the ports it counted are
// checked against their tariff's quota for this month: past 100 % (first, so a port that jumps over both thresholds
// in one batch hears only that it is over) and past 80 %. The flag and the notification are written in one
// transaction, and the conditional update picks a port only while its flag is unset, so each threshold notifies
// once per port and month whichever instance records which batch. Setting reached_at announces the port's customer
// on 'cellport_ports' (a trigger), which recomputes its host's desired state: throttled or blocked until the month ends.

/** Notifies the customers of these ports that crossed 80 % or 100 % of their quota this month; returns how many. */
export async function recordQuotaCrossings(repo: TrafficRepository, notifications: NotificationsService, portIds: string[], now = new Date()): Promise<number> {
  const ids = [...new Set(portIds)];
  if (ids.length === 0) return 0;
  const month = quotaMonth(now).start.toISOString().slice(0, 10);
  return repo.transaction(async (tx) => {
    let sent = 0;
    for (const r of await repo.quotaCrossings(tx, ids, month, 'reached')) {
      const action = r.over_quota === 'throttle' && r.over_quota_mbps !== null
        ? { key: 'quota_throttled_description', params: { mbps: r.over_quota_mbps } } : { key: 'quota_blocked_description' };
      await notifications.notify(r.user_id, 'other', 'quota_reached', { name: portNameText(r), quota: r.monthly_quota_gb, action, port: r.port_id }, tx);
      sent++;
    }
    for (const r of await repo.quotaCrossings(tx, ids, month, 'warned')) {
      await notifications.notify(r.user_id, 'other', 'quota_warning', { name: portNameText(r), quota: r.monthly_quota_gb, percent: PORT_LIMITS.warnPercent, port: r.port_id }, tx);
      sent++;
    }
    return sent;
  });
}
