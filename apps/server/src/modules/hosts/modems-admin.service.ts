import type {
  AdminModem, ModemImportResponse, ModemPatchRequest, ModemRequest, ModemsQuery, ModemsResponse, StockResponse,
} from '@cellport/shared/schemas/admin/modems';
import { ADOPTED_MODEM_PORT_BASE, type AdoptModemRequest } from '@cellport/shared/schemas/admin/host-inventory';
import type { HostModemInfo } from '@cellport/shared/schemas/host-protocol';
import { AppError } from '../../lib/app-error.js';
import { paging } from '../../lib/console-http.js';
import type { AuditActor, AuditLog } from '../audit/index.js';
import type { GatewayPorts } from '../gateways/index.js';
import { assertModemRefs, normalizeModem } from './modem-values.js';
import { planImport } from './modem-import.js';
import { stockReport } from './modem-stock.js';
import { assertModemPortsFreeOfPorts } from './port-numbers-in-use.js';
import type { ModemsRepository } from './modems.repository.js';

/**
 * The console's modems: list with users, add, edit, retire (never delete one with history), CSV import and the stock
 * report. `gatewayPorts` keeps a modem of a pinned host off the numbers other hosts behind its gateway serve.
 */
export class ModemsAdminService {
  constructor(private readonly repo: ModemsRepository, private readonly audit: AuditLog, private readonly gatewayPorts: GatewayPorts) {}

  async search(query: ModemsQuery): Promise<ModemsResponse> {
    const page = paging(query);
    return { ...await this.repo.search(query, page), page: page.page, pageSize: page.pageSize };
  }

  private async one(id: string): Promise<AdminModem> {
    const [modem] = await this.repo.byIds([id]);
    if (!modem) throw new AppError('NOT_FOUND');
    return modem;
  }

  /**
   * A new modem. `from` is the host's report when the modem is added from it (adopt): its driver is recorded and the
   * audit entry says so, with what the host reported.
   */
  async create(actor: AuditActor, req: ModemRequest, from?: { report: StoredReport }): Promise<AdminModem> {
    const values = normalizeModem({
      imei: req.imei, host_id: req.hostId, http_port: req.httpPort, socks_port: req.socksPort, ext_ip: req.extIp,
      country_id: req.countryId, carrier_id: req.carrierId, region_id: req.regionId ?? null, is_shared: req.isShared,
      capacity: req.capacity ?? 1, rotation_interval: req.rotationInterval ?? null, online: req.online ?? true,
    });
    const id = await this.repo.transaction(async (tx) => {
      await assertModemRefs(this.repo, tx, values);
      await this.gatewayPorts.assertModemPortsFree(tx, values.host_id, [values.http_port, values.socks_port]);
      await assertModemPortsFreeOfPorts(this.repo, tx, values.host_id, [values.http_port, values.socks_port]);
      const row = await this.repo.insert(tx, { ...values, ...(from ? { driver: from.report.driver } : {}) });
      await this.audit.record(tx, actor, from
        ? { action: 'modem.adopt', targetType: 'modem', targetId: row.id, before: null, after: { ...row, driver: from.report.driver, reported: reportSummary(from.report) } }
        : { action: 'modem.create', targetType: 'modem', targetId: row.id, before: null, after: row });
      return row.id;
    });
    return this.one(id);
  }

  /**
   * Adds a modem that the host's agent reports and the inventory does not know: its IMEI, driver and measured IP come
   * from the report, its listening ports are the lowest pair from ADOPTED_MODEM_PORT_BASE that no modem of the host
   * uses (HTTP or SOCKS) — nor any other host behind the same gateway —, and the operator gives what is sold (country, carrier, region, shared or dedicated,
   * capacity). Two operators adding modems of one host at once: the loser of a port pair takes the next one.
   */
  async adopt(actor: AuditActor, hostId: string, req: AdoptModemRequest): Promise<AdminModem> {
    const stored = await this.repo.reportOf(hostId, req.imei);
    if (stored === undefined) throw new AppError('NOT_FOUND');
    const report = stored as StoredReport;
    for (let attempt = 1; ; attempt++) {
      const ports = await freePortPair(this.repo, hostId);
      try {
        return await this.create(actor, {
          imei: req.imei, hostId, httpPort: ports.http, socksPort: ports.socks, extIp: report.extIp ?? '',
          countryId: req.countryId, carrierId: req.carrierId, regionId: req.regionId ?? null, isShared: req.isShared,
          capacity: req.capacity, rotationInterval: req.rotationInterval, online: !report.problem,
        }, { report });
      } catch (err) {
        const taken = err instanceof AppError && (err.code === 'MODEM_PORT_TAKEN' || err.code === 'GATEWAY_PORT_CONFLICT');
        if (!taken || attempt >= 5) throw err;
      }
    }
  }

  /** Any field; the row lock keeps a concurrent purchase from filling a slot while capacity shrinks. */
  async update(actor: AuditActor, id: string, patch: ModemPatchRequest): Promise<AdminModem> {
    await this.repo.transaction(async (tx) => {
      const before = await this.repo.lock(tx, id);
      if (!before) throw new AppError('NOT_FOUND');
      const next = normalizeModem({
        imei: patch.imei ?? before.imei, host_id: patch.hostId ?? before.host_id, http_port: patch.httpPort ?? before.http_port,
        socks_port: patch.socksPort ?? before.socks_port, ext_ip: patch.extIp ?? before.ext_ip,
        country_id: patch.countryId ?? before.country_id, carrier_id: patch.carrierId ?? before.carrier_id,
        region_id: patch.regionId !== undefined ? patch.regionId : before.region_id,
        is_shared: patch.isShared ?? before.is_shared, capacity: patch.capacity ?? before.capacity,
        rotation_interval: patch.rotationInterval !== undefined ? patch.rotationInterval : before.rotation_interval,
        online: patch.online ?? before.online,
      });
      if (before.used_slots > 0 && (next.is_shared !== before.is_shared || next.country_id !== before.country_id)) {
        throw new AppError('IN_USE'); // customers' ports are on it: it cannot change what it sells
      }
      if (next.capacity < before.used_slots) throw new AppError('CAPACITY_BELOW_USED');
      await assertModemRefs(this.repo, tx, next);
      const retired = patch.retired ?? before.retired;
      const moved = next.host_id !== before.host_id || next.http_port !== before.http_port || next.socks_port !== before.socks_port;
      // Serving new ports (or serving again): they must be free on the host's gateway, if it has one.
      if (!retired && (moved || before.retired)) {
        await this.gatewayPorts.assertModemPortsFree(tx, next.host_id, [next.http_port, next.socks_port], id);
        await assertModemPortsFreeOfPorts(this.repo, tx, next.host_id, [next.http_port, next.socks_port], id);
      }
      const fingerprint_default = patch.fingerprintDefault !== undefined ? patch.fingerprintDefault : before.fingerprint_default;
      const after = await this.repo.update(tx, id, { ...next, retired: patch.retired ?? before.retired, fingerprint_default });
      const action = patch.retired === true && !before.retired ? 'modem.retire'
        : patch.retired === false && before.retired ? 'modem.unretire' : 'modem.update';
      await this.audit.record(tx, actor, { action, targetType: 'modem', targetId: id, before, after });
    });
    return this.one(id);
  }

  retire(actor: AuditActor, id: string): Promise<AdminModem> {
    return this.update(actor, id, { retired: true });
  }

  /** Only a modem that never carried a port; one with history is retired instead. */
  async remove(actor: AuditActor, id: string): Promise<void> {
    await this.repo.transaction(async (tx) => {
      const before = await this.repo.lock(tx, id);
      if (!before) throw new AppError('NOT_FOUND');
      if (await this.repo.hasCarriedPorts(tx, id)) throw new AppError('IN_USE');
      await this.repo.delete(tx, id);
      await this.audit.record(tx, actor, { action: 'modem.delete', targetType: 'modem', targetId: id, before, after: null });
    });
  }

  /** Inserts the valid rows of the file in one transaction and reports every row. */
  async import(actor: AuditActor, csv: string): Promise<ModemImportResponse> {
    return this.repo.transaction(async (tx) => {
      const plan = await planImport(this.repo, tx, csv);
      const rows = plan.rows.map((r) => ({ row: r.row, ok: !r.error, error: r.error?.message ?? null, code: r.error?.code ?? null,
        field: r.error?.field ?? null, imei: r.imei, id: null as string | null }));
      const valid = plan.rows.filter((r) => r.values && !r.error);
      if (valid.length) {
        const inserted = await this.repo.insertMany(tx, valid.map((r) => r.values!));
        const ids = new Map(inserted.map((m) => [m.imei, m.id]));
        for (const r of rows) if (r.ok && r.imei) r.id = ids.get(r.imei) ?? null;
        await this.audit.record(tx, actor, {
          action: 'modem.import', targetType: 'modem', targetId: null, before: null,
          after: { inserted: inserted.length, failed: rows.length - inserted.length, modems: inserted },
        });
      }
      return { inserted: valid.length, failed: rows.length - valid.length, rows };
    });
  }

  stock(): Promise<StockResponse> {
    return stockReport(this.repo);
  }
}

/** A host's report of a modem as stored (the heartbeat's HostModemInfo without its IMEI). */
type StoredReport = Omit<HostModemInfo, 'imei'>;

/** What the audit entry of an added modem keeps of the host's report. */
const reportSummary = (r: StoredReport) => ({
  name: r.name ?? null, model: r.model ?? null, operator: r.operator ?? null, networkType: r.networkType ?? null, extIp: r.extIp ?? null,
});

/**
 * The lowest HTTP/SOCKS pair (p, p + 1) from ADOPTED_MODEM_PORT_BASE of which neither the host's modems nor the
 * serving modems of the other hosts behind its gateway (if any) use either.
 */
async function freePortPair(repo: ModemsRepository, hostId: string): Promise<{ http: number; socks: number }> {
  // Customers' ports keep their own numbers wherever they move (decision 045): those are not free either.
  const used = new Set([...await repo.modemNumbersNear(hostId), ...await repo.portNumbersNear(hostId)]);
  for (let p = ADOPTED_MODEM_PORT_BASE; p < 65535; p += 2) {
    if (!used.has(p) && !used.has(p + 1)) return { http: p, socks: p + 1 };
  }
  throw new AppError('MODEM_PORT_TAKEN');
}
