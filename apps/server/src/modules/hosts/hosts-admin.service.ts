import { hostCapability, type HostModemInfo } from '@cellport/shared/schemas/host-protocol';
import type { HostPatchRequest, HostRequest } from '@cellport/shared/schemas/admin/hosts';
import type {
  InventoryHost, InventoryHostsResponse, ModemReport, NewHostModem, ReportedHostModem,
} from '@cellport/shared/schemas/admin/host-inventory';
import type { Tx } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { iso } from '../../lib/console-http.js';
import type { AuditActor, AuditLog } from '../audit/index.js';
import { issueHostKey } from './host-keys.repository.js';
import type { HostsAdminRepository } from './hosts-admin.repository.js';

/** Who acts on hosts: an operator in the console, or the command line (`npm run admin -- host-key`: no admin, ip 'cli'). */
export type HostsActor = AuditActor | { adminId: null; ip: string };

/** What pinning a host to a gateway asks of the console's gateways (modules/gateways): that its ports are free there. */
export interface GatewayPins {
  checkPin(tx: Tx, hostId: string, gatewayId: string): Promise<void>;
}

/** A key just issued (shown once), with what the command line tells of it. */
export interface IssuedHostKey { key: string; name: string; replaced: boolean }

/**
 * Proxy hosts: add, rename or re-address, pin to a gateway or make direct; delete only while no modem was ever on it.
 * The console and the command line call the same operations, each audited once.
 */
export class HostsAdminService {
  constructor(private readonly repo: HostsAdminRepository, private readonly audit: AuditLog, private readonly gateways: GatewayPins) {}

  /**
   * Every host with its agent's last contact, its modems (each with the agent's latest report of it), the modems
   * its agent reports that the inventory does not know ("new on this host"), and the gateway it is pinned to with its
   * agent's last report of that link; `now` is the database's clock, which judged `online`.
   */
  async list(): Promise<InventoryHostsResponse> {
    const { hosts: rows, modems, reports, now } = await this.repo.inventory();
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
    return { items, now: now.toISOString() };
  }

  private async one(id: string): Promise<InventoryHost> {
    const host = (await this.list()).items.find((h) => h.id === id);
    if (!host) throw new AppError('NOT_FOUND');
    return host;
  }

  async create(actor: AuditActor, req: HostRequest): Promise<InventoryHost> {
    const id = await this.repo.transaction(async (tx) => {
      const row = await this.repo.insert(tx, { name: req.name, address: req.address });
      await this.audit.record(tx, actor, { action: 'host.create', targetType: 'host', targetId: row.id, before: null, after: row });
      return row.id;
    });
    return this.one(id);
  }

  /** Renames, re-addresses, or pins the host to a gateway (gatewayId; null: direct) once its ports are free there. */
  async update(actor: AuditActor, id: string, patch: HostPatchRequest): Promise<InventoryHost> {
    await this.repo.transaction(async (tx) => {
      const locked = await this.repo.lock(tx, id);
      if (!locked) throw new AppError('NOT_FOUND');
      const before = { id: locked.id, name: locked.name, address: locked.address, gateway_id: locked.gateway_id };
      const gatewayId = patch.gatewayId === undefined ? before.gateway_id : patch.gatewayId;
      // Only a new pin is checked: a rename of a host already behind its gateway is not refused for its ports.
      if (gatewayId && gatewayId !== before.gateway_id) await this.gateways.checkPin(tx, id, gatewayId);
      const after = await this.repo.update(tx, id, { name: patch.name ?? before.name, address: patch.address ?? before.address, gateway_id: gatewayId });
      await this.audit.record(tx, actor, { action: 'host.update', targetType: 'host', targetId: id, before, after });
    });
    return this.one(id);
  }

  /**
   * A new key for the host's agent, returned once: only its hash is stored, and it replaces the previous key, which
   * stops authenticating at once (an agent already connected with it is the host protocol's to drop). The audit entry
   * records that a key was issued, never the key; one issued outside the console says from where (`via: 'cli'`).
   */
  async issueKey(actor: HostsActor, id: string): Promise<IssuedHostKey> {
    return this.repo.transaction(async (tx) => {
      const host = await this.repo.lock(tx, id);
      if (!host) throw new AppError('NOT_FOUND');
      const key = await issueHostKey(tx, id);
      await this.audit.record(tx, actor, {
        action: 'host.key-issue', targetType: 'host', targetId: id,
        before: { name: host.name, hadKey: host.hasKey },
        after: { name: host.name, keyReplaced: host.hasKey, ...(actor.adminId === null ? { via: actor.ip } : {}) },
      });
      return { key, name: host.name, replaced: host.hasKey };
    });
  }

  async remove(actor: AuditActor, id: string): Promise<void> {
    await this.repo.transaction(async (tx) => {
      const locked = await this.repo.lock(tx, id);
      if (!locked) throw new AppError('NOT_FOUND');
      if (await this.repo.hasModems(tx, id)) throw new AppError('IN_USE');
      await this.repo.delete(tx, id);
      const before = { id: locked.id, name: locked.name, address: locked.address };
      await this.audit.record(tx, actor, { action: 'host.delete', targetType: 'host', targetId: id, before, after: null });
    });
  }
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
