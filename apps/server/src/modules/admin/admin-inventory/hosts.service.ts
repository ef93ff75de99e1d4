import { sql } from 'kysely';
import { HOST_PROTOCOL, hostCapability } from '@cellport/shared/schemas/host-protocol';
import type { HostPatchRequest, HostRequest } from '@cellport/shared/schemas/admin/hosts';
import type {
  InventoryHost, InventoryHostsResponse, ModemReport, NewHostModem, ReportedHostModem,
} from '@cellport/shared/schemas/admin/host-inventory';
import type { HostModemInfo } from '@cellport/shared/schemas/host-protocol';
import type { Database } from '../../../db/database.js';
import { AppError } from '../../../lib/app-error.js';
import { issueHostKey } from '../../traffic/index.js';
import { iso } from '../../../lib/console-http.js';
import type { AuditActor, AuditLog } from '../../audit/index.js';
import { isUniqueViolation } from '../../../db/pg-errors.js';
import type { GatewaysService } from './gateways.service.js';

/**
 * Proxy hosts: add, rename or re-address, pin to a gateway or make direct; delete only while no modem was ever on it.
 * The gateways' own service comes with it: pinning asks it, and the inventory routes serve both.
 */
export class HostsService {
  constructor(private readonly db: Database, private readonly audit: AuditLog, readonly gateways: GatewaysService) {}

  /**
   * Every host with its agent's last contact, its modems (each with the agent's latest report of it), the modems
   * its agent reports that the inventory does not know ("new on this host"), and the gateway it is pinned to with its
   * agent's last report of that link; `now` is the database's clock, which judged `online`.
   */
  async list(): Promise<InventoryHostsResponse> {
    const offline = HOST_PROTOCOL.offlineAfterSeconds;
    const [rows, modems, reports, clock] = await Promise.all([
      this.db.selectFrom('hosts as h')
        .leftJoin('gateways as g', 'g.id', 'h.gateway_id')
        .leftJoin('host_gateway_links as l', 'l.host_id', 'h.id')
        .select(['h.id', 'h.name', 'h.address', 'h.last_seen_at', 'h.agent_version', 'h.agent_started_at', 'h.fingerprint'])
        .select(['g.id as gateway_id', 'g.name as gateway_name', 'g.public_host', 'l.state as link_state', 'l.problem as link_problem',
          'l.changed_at as link_changed_at'])
        .select(sql<boolean>`h.ingest_key_hash is not null`.as('has_key'))
        .select(sql<boolean>`coalesce(h.last_seen_at > now() - make_interval(secs => ${sql.lit(offline)}), false)`.as('online'))
        .orderBy('h.name').execute(),
      this.db.selectFrom('modems')
        .select(['id', 'host_id', 'imei', 'http_port', 'socks_port', 'ext_ip', 'online', 'retired', 'connections', 'problem',
          'health', 'health_reason', 'health_changed_at'])
        .orderBy('host_id').orderBy('imei').execute(),
      this.db.selectFrom('host_modem_reports as r')
        .select(['r.host_id', 'r.imei', 'r.report', 'r.first_seen_at', 'r.changed_at'])
        .select((eb) => eb.exists(eb.selectFrom('modems as m').select('m.id').whereRef('m.imei', '=', 'r.imei')).as('known'))
        .orderBy('r.host_id').orderBy('r.first_seen_at').orderBy('r.imei').execute(),
      sql<{ now: Date }>`select now() as now`.execute(this.db),
    ]);
    const reportOf = new Map<string, ModemReport>();
    const newByHost = new Map<string, NewHostModem[]>();
    for (const r of reports) {
      const report = toModemReport(r.report as StoredReport, r.changed_at);
      if (r.known) reportOf.set(`${r.host_id} ${r.imei}`, report);
      else newByHost.set(r.host_id, [...(newByHost.get(r.host_id) ?? []), { ...report, imei: r.imei, firstSeenAt: r.first_seen_at.toISOString() }]);
    }
    const byHost = new Map<string, ReportedHostModem[]>();
    for (const m of modems) {
      const list = byHost.get(m.host_id) ?? [];
      list.push({
        id: m.id, imei: m.imei, httpPort: m.http_port, socksPort: m.socks_port, extIp: m.ext_ip, online: m.online,
        retired: m.retired, connections: m.connections, problem: m.problem, report: reportOf.get(`${m.host_id} ${m.imei}`) ?? null,
        health: m.health, healthReason: m.health_reason, healthChangedAt: iso(m.health_changed_at),
      });
      byHost.set(m.host_id, list);
    }
    const items = rows.map((r) => {
      const hostModems = byHost.get(r.id) ?? [];
      return {
        id: r.id, name: r.name, address: r.address, modemCount: hostModems.length, hasKey: r.has_key,
        lastSeenAt: iso(r.last_seen_at), online: r.online, agentVersion: r.agent_version, agentStartedAt: iso(r.agent_started_at),
        modems: hostModems, newModems: newByHost.get(r.id) ?? [],
        gateway: r.gateway_id ? { id: r.gateway_id, name: r.gateway_name!, publicHost: r.public_host! } : null,
        // A direct host's row holds what it reported while pinned, if ever: not a link it has now.
        gatewayLink: r.gateway_id && r.link_state
          ? { state: r.link_state, problem: r.link_problem ?? null, changedAt: r.link_changed_at!.toISOString() }
          : null,
        fingerprintUnavailable: hostCapability(r.fingerprint).reason,
      };
    });
    return { items, now: new Date(clock.rows[0]!.now).toISOString() };
  }

  private async one(id: string): Promise<InventoryHost> {
    const host = (await this.list()).items.find((h) => h.id === id);
    if (!host) throw new AppError('NOT_FOUND');
    return host;
  }

  async create(actor: AuditActor, req: HostRequest): Promise<InventoryHost> {
    const id = await this.db.transaction().execute(async (tx) => {
      const row = await tx.insertInto('hosts').values({ name: req.name, address: req.address }).returning(['id', 'name', 'address'])
        .executeTakeFirstOrThrow().catch(rethrowDuplicate);
      await this.audit.record(tx, actor, { action: 'host.create', targetType: 'host', targetId: row.id, before: null, after: row });
      return row.id;
    });
    return this.one(id);
  }

  /** Renames, re-addresses, or pins the host to a gateway (gatewayId; null: direct) once its ports are free there. */
  async update(actor: AuditActor, id: string, patch: HostPatchRequest): Promise<InventoryHost> {
    await this.db.transaction().execute(async (tx) => {
      const before = await tx.selectFrom('hosts').select(['id', 'name', 'address', 'gateway_id']).where('id', '=', id).forUpdate().executeTakeFirst();
      if (!before) throw new AppError('NOT_FOUND');
      const gatewayId = patch.gatewayId === undefined ? before.gateway_id : patch.gatewayId;
      // Only a new pin is checked: a rename of a host already behind its gateway is not refused for its ports.
      if (gatewayId && gatewayId !== before.gateway_id) await this.gateways.checkPin(tx, id, gatewayId);
      const after = await tx.updateTable('hosts')
        .set({ name: patch.name ?? before.name, address: patch.address ?? before.address, gateway_id: gatewayId })
        .where('id', '=', id).returning(['id', 'name', 'address', 'gateway_id']).executeTakeFirstOrThrow().catch(rethrowDuplicate);
      await this.audit.record(tx, actor, { action: 'host.update', targetType: 'host', targetId: id, before, after });
    });
    return this.one(id);
  }

  /**
   * A new key for the host's agent, returned once: only its hash is stored, and it replaces the previous key, which
   * stops authenticating at once (an agent already connected with it is the hosts module's to drop). The audit entry
   * records that a key was issued, never the key.
   */
  async issueKey(actor: AuditActor, id: string): Promise<string> {
    return this.db.transaction().execute(async (tx) => {
      const before = await tx.selectFrom('hosts').select(['id', 'name', 'ingest_key_hash']).where('id', '=', id).forUpdate().executeTakeFirst();
      if (!before) throw new AppError('NOT_FOUND');
      const key = await issueHostKey(tx, id);
      await this.audit.record(tx, actor, {
        action: 'host.key-issue', targetType: 'host', targetId: id,
        before: { name: before.name, hadKey: before.ingest_key_hash !== null }, after: { name: before.name, keyReplaced: before.ingest_key_hash !== null },
      });
      return key;
    });
  }

  async remove(actor: AuditActor, id: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      const before = await tx.selectFrom('hosts').select(['id', 'name', 'address']).where('id', '=', id).forUpdate().executeTakeFirst();
      if (!before) throw new AppError('NOT_FOUND');
      const used = await tx.selectFrom('modems').select('id').where('host_id', '=', id).limit(1).executeTakeFirst();
      if (used) throw new AppError('IN_USE');
      await tx.deleteFrom('hosts').where('id', '=', id).execute();
      await this.audit.record(tx, actor, { action: 'host.delete', targetType: 'host', targetId: id, before, after: null });
    });
  }
}

function rethrowDuplicate(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError('ALREADY_EXISTS');
  throw error;
}

/** A stored report: the heartbeat's HostModemInfo without its IMEI. */
type StoredReport = Omit<HostModemInfo, 'imei'>;

/** The console's view of a stored report: absent facts as null, and the rotation success rate. */
export function toModemReport(r: StoredReport, changedAt: Date): ModemReport {
  const rotations = r.rotations
    ? { total: r.rotations.total, succeeded: r.rotations.succeeded, collisions: r.rotations.collisions, lastMs: r.rotations.lastMs ?? null }
    : null;
  return {
    driver: r.driver, name: r.name ?? null, manufacturer: r.manufacturer ?? null, model: r.model ?? null, firmware: r.firmware ?? null,
    operator: r.operator ?? null, networkType: r.networkType ?? null,
    signal: r.signal
      ? { rssi: r.signal.rssi ?? null, rsrp: r.signal.rsrp ?? null, rsrq: r.signal.rsrq ?? null, sinr: r.signal.sinr ?? null, quality: r.signal.quality ?? null }
      : null,
    connection: r.connection ?? null, extIp: r.extIp ?? null, rotations,
    successRate: rotations && rotations.total > 0 ? rotations.succeeded / rotations.total : null,
    problem: r.problem ?? null, changedAt: changedAt.toISOString(),
  };
}
