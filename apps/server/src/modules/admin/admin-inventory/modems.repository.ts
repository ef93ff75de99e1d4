import { hostCapability } from '@cellport/shared/schemas/host-protocol';
import { sql } from 'kysely';
import type { AdminModem, ModemsQuery } from '@cellport/shared/schemas/admin/modems';
import type { Database, Tx } from '../../../db/database.js';
import { cappedTotal, containsPattern, LIST_COUNT_CAP, type ListTotal } from '../../../lib/console-lists.repository.js';
import type { Paging } from '../../../lib/console-http.js';

/** Modem queries of the console: the filtered list with who uses each modem. */
export class ModemsRepository {
  /** countCap: the list's total counts at most this many modems (lib/console-lists.repository.ts, cappedTotal). */
  constructor(private readonly db: Database, private readonly countCap = LIST_COUNT_CAP) {}

  async search(f: Omit<ModemsQuery, 'page' | 'pageSize'>, page: Paging): Promise<{ items: AdminModem[] } & ListTotal> {
    const base = () => {
      let q = this.db.selectFrom('modems as m');
      if (f.country_id) q = q.where('m.country_id', '=', f.country_id);
      if (f.carrier_id) q = q.where('m.carrier_id', '=', f.carrier_id);
      if (f.region_id) q = q.where('m.region_id', '=', f.region_id);
      if (f.host_id) q = q.where('m.host_id', '=', f.host_id);
      if (f.isShared) q = q.where('m.is_shared', '=', f.isShared === 'true');
      if (f.status === 'retired') q = q.where('m.retired', '=', true);
      else if (f.status) q = q.where('m.retired', '=', false);
      if (f.status === 'online') q = q.where('m.online', '=', true);
      if (f.status === 'offline') q = q.where('m.online', '=', false);
      if (f.status === 'free') q = q.where(sql<boolean>`m.used_slots < m.capacity`);
      if (f.status === 'used') q = q.where('m.used_slots', '>', 0);
      // One of its ports is in its host's last list of ports whose preset could not be applied (the heartbeat's).
      if (f.status === 'presetFailing') {
        q = q.where(sql<boolean>`exists (select 1 from ports p join hosts h on h.id = m.host_id
          cross join jsonb_array_elements(coalesce(h.fingerprint -> 'failing', '[]'::jsonb)) as f(item)
          where p.modem_id = m.id and p.status <> 'released' and f.item ->> 'portId' = p.id::text)`);
      }
      if (f.q) {
        const like = containsPattern(f.q.toLowerCase());
        q = q.where((eb) => eb.or([eb(sql`lower(m.imei)`, 'like', like), eb(sql`lower(m.ext_ip)`, 'like', like)]));
      }
      return q;
    };
    const [rows, total] = await Promise.all([
      base().select('m.id').orderBy('m.imei').limit(page.pageSize).offset(page.offset).execute(),
      cappedTotal(this.db, base(), this.countCap),
    ]);
    return { items: await this.byIds(rows.map((r) => r.id)), ...total };
  }

  /** The modems with these ids (in IMEI order), each with its current users. */
  async byIds(ids: string[], q: Database | Tx = this.db): Promise<AdminModem[]> {
    if (!ids.length) return [];
    const [modems, users] = await Promise.all([
      q.selectFrom('modems as m').innerJoin('hosts as h', 'h.id', 'm.host_id')
        .select(['m.id', 'm.imei', 'm.host_id', 'h.name as host_name', 'm.http_port', 'm.socks_port', 'm.ext_ip', 'm.online',
          'm.retired', 'm.apply_status', 'm.country_id', 'm.carrier_id', 'm.region_id', 'm.is_shared', 'm.capacity',
          'm.used_slots', 'm.rotation_interval', 'm.last_rotated_at', 'm.maintenance_since', 'm.fingerprint_default', 'h.fingerprint'])
        .where('m.id', 'in', ids).orderBy('m.imei').execute(),
      q.selectFrom('ports as p').innerJoin('users as u', 'u.id', 'p.user_id')
        .select(['p.id', 'p.modem_id', 'p.user_id', 'u.email', 'p.name', 'p.status', 'p.expires_at'])
        .where('p.modem_id', 'in', ids).where('p.status', '<>', 'released').orderBy('p.created_at').execute(),
    ]);
    return modems.map((m) => {
      const portIds = new Set(users.filter((u) => u.modem_id === m.id).map((u) => u.id));
      return {
        id: m.id, imei: m.imei, hostId: m.host_id, hostName: m.host_name, httpPort: m.http_port, socksPort: m.socks_port,
        extIp: m.ext_ip, online: m.online, retired: m.retired, applyStatus: m.apply_status, countryId: m.country_id,
        carrierId: m.carrier_id, regionId: m.region_id, isShared: m.is_shared, capacity: m.capacity, usedSlots: m.used_slots,
        rotationInterval: m.rotation_interval, lastRotatedAt: m.last_rotated_at ? m.last_rotated_at.toISOString() : null,
        maintenanceSince: m.maintenance_since ? m.maintenance_since.toISOString() : null,
        users: users.filter((u) => u.modem_id === m.id).map((u) => ({
          portId: u.id, userId: u.user_id, email: u.email, portName: u.name, status: u.status as 'active' | 'expired',
          expiresAt: u.expires_at.toISOString(),
        })),
        fingerprintDefault: m.fingerprint_default,
        fingerprintUnavailable: hostCapability(m.fingerprint).reason,
        fingerprintFailing: (m.fingerprint?.failing ?? []).filter((f) => portIds.has(f.portId)),
      };
    });
  }
}
