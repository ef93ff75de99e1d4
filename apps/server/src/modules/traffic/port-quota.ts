import { PORT_LIMITS, quotaMonth } from '@cellport/shared/schemas/port-limits';
import { sql } from 'kysely';
import type { Database, Tx } from '../../db/database.js';
import { portNameText, type NotificationsService } from '../notifications/index.js';

// Monthly quotas (issue 18, item 3; decision 030). After a traffic batch is recorded, the ports it counted are
// checked against their tariff's quota for this month: past 100 % (first, so a port that jumps over both thresholds
// in one batch hears only that it is over) and past 80 %. The flag and the notification are written in one
// transaction, and the conditional update picks a port only while its flag is unset, so each threshold notifies
// once per port and month whichever instance records which batch. Setting reached_at announces the port's customer
// on 'cellport_ports' (a trigger), which recomputes its host's desired state: throttled or blocked until the month ends.

interface Crossed {
  port_id: string; user_id: string; name: string; default_number: number | null; monthly_quota_gb: number; over_quota: 'throttle' | 'block'; over_quota_mbps: number | null;
}

const QUOTA_BYTES = sql`t.monthly_quota_gb::numeric * ${PORT_LIMITS.bytesPerGb}`;

function crossings(tx: Tx, portIds: string[], month: string, threshold: 'reached' | 'warned') {
  const over = threshold === 'reached'
    ? sql`q.bytes::numeric >= ${QUOTA_BYTES}`
    : sql`q.bytes::numeric * 100 >= ${QUOTA_BYTES} * ${PORT_LIMITS.warnPercent}`;
  const set = threshold === 'reached' ? sql`reached_at = now(), warned_at = coalesce(q.warned_at, now())` : sql`warned_at = now()`;
  const unset = threshold === 'reached' ? sql`q.reached_at is null` : sql`q.warned_at is null`;
  return sql<Crossed>`
    update port_traffic_months q set ${set}
    from ports p join tariffs t on t.id = p.tariff_id
    where q.port_id = p.id and q.port_id in (${sql.join(portIds)}) and q.month = ${month}::date
      and ${unset} and t.monthly_quota_gb is not null and ${over}
    returning q.port_id, p.user_id, p.name, p.default_number, t.monthly_quota_gb, t.over_quota, t.over_quota_mbps`.execute(tx);
}

/** Notifies the customers of these ports that crossed 80 % or 100 % of their quota this month; returns how many. */
export async function recordQuotaCrossings(db: Database, notifications: NotificationsService, portIds: string[], now = new Date()): Promise<number> {
  const ids = [...new Set(portIds)];
  if (ids.length === 0) return 0;
  const month = quotaMonth(now).start.toISOString().slice(0, 10);
  return db.transaction().execute(async (tx) => {
    let sent = 0;
    for (const r of (await crossings(tx, ids, month, 'reached')).rows) {
      const action = r.over_quota === 'throttle' && r.over_quota_mbps !== null
        ? { key: 'quota_throttled_description', params: { mbps: r.over_quota_mbps } } : { key: 'quota_blocked_description' };
      await notifications.notify(r.user_id, 'other', 'quota_reached', { name: portNameText(r), quota: r.monthly_quota_gb, action, port: r.port_id }, tx);
      sent++;
    }
    for (const r of (await crossings(tx, ids, month, 'warned')).rows) {
      await notifications.notify(r.user_id, 'other', 'quota_warning', { name: portNameText(r), quota: r.monthly_quota_gb, percent: PORT_LIMITS.warnPercent, port: r.port_id }, tx);
      sent++;
    }
    return sent;
  });
}
