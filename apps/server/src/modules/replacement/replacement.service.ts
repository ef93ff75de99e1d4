import { REPLACEMENT_LIMITS, type ReplacementResponse } from '@cellport/shared/schemas/replacement';
import { sql } from 'kysely';
import type { Database, Tx } from '../../db/database.js';
import type { JobQueue } from '../../jobs/queue.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { AuditLog } from '../admin/audit/audit.service.js';
import type { OperatorSettingsCache } from '../admin/admin-settings/operator-settings-cache.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import type { PurchasesRepository, StockFilter } from '../purchases/purchases.repository.js';
import { ADDRESS_KEPT, settleListeningPorts } from './keep-address.js';
import { JOBS } from '../../jobs/job-kinds.js';

export const REPLACEMENT_JOB = JOBS.portReplace.name;
const HOUR_MS = 3_600_000;
const PLAN_BATCH = 200;

type Reason = 'offline' | 'customer';
/** Who an audit row names: 'system' for the automatic move, the customer's request from their address. */
interface Actor { adminId: null; ip: string; customerId?: string }
const SYSTEM: Actor = { adminId: null, ip: 'system' };

export interface ReplacementDeps {
  db: Database;
  jobs: JobQueue;
  purchases: PurchasesRepository;
  notifications: NotificationsService;
  audit: AuditLog;
  settings: OperatorSettingsCache;
  /** REPLACEMENT_AFTER_MINUTES: the default when the console has no setting. */
  defaultAfterMinutes: number;
}

/** The port and its modem as a move reads them (the port's row locked). */
interface PortOnModem {
  id: string; user_id: string; name: string; status: 'active' | 'expired' | 'released'; expires_at: Date;
  modem_id: string; imei: string; host_id: string; country_id: string; carrier_id: string; region_id: string | null;
  is_shared: boolean; rotation_interval: number | null; health: 'online' | 'degraded' | 'offline';
  health_changed_at: Date | null; retired: boolean;
  /** The port's own listening numbers (decision 045); null: a shared port sold before them. */
  http_port: number | null; socks_port: number | null;
  /** Where the customer connects now: the gateway's public host, else the host's address. */
  address: string; gateway_id: string | null;
}

/**
 * Replacement of a port's modem (issue 15, item 6; decision 028). A port moves to a healthy free modem of the same
 * country, carrier, region and kind (a dedicated port to a free dedicated modem, a shared port to a shared modem with
 * a free slot and the same rotation schedule), picked by the purchase path's own stock rules (PurchasesRepository:
 * SKIP LOCKED for dedicated modems, locked rows re-checked for shared ones), in one transaction with the port's row
 * locked: two ports after the last free modem never both get it, and the loser waits in the queue.
 *
 * The port keeps its row — login, password, whitelist, rotation settings, term — and only its modem changes, so the
 * agents get their new desired states and the customer's list its new host, ports and IP from the database's own
 * announcements (the ports triggers, decision 016). The old modem goes into maintenance (not sold, not picked) until
 * an operator returns it, except a shared modem a customer merely asked to leave. Nothing is charged; every move and
 * every queued request is in the audit log (actor 'system' for the automatic ones).
 *
 * Automatic moves are durable jobs: a planner, before each batch of the job queue, finds the ports whose modem has
 * been offline longer than the console's setting and the queued ports for which a modem is now free (one statement),
 * and schedules one job per port (its key makes instances schedule it once; SKIP LOCKED makes one run it).
 */
export class ReplacementService {
  constructor(private readonly deps: ReplacementDeps) {}

  register(): void {
    this.deps.jobs.handle(JOBS.portReplace, (tx, { portId }, now) => this.runJob(tx, portId, now));
    this.deps.jobs.plan((now) => this.plan(now));
  }

  /** The console's setting, else the configured default (read from the settings cache: no query per run). */
  async afterMinutes(): Promise<number> {
    return (await this.deps.settings.overrides()).replacementAfterMinutes ?? this.deps.defaultAfterMinutes;
  }

  /** Schedules a job for each port that needs a move now. */
  async plan(now: Date): Promise<void> {
    const cutoff = new Date(now.getTime() - (await this.afterMinutes()) * 60_000);
    const { rows } = await sql<{ id: string }>`
      (select p.id from ports p join modems m on m.id = p.modem_id
        where p.status <> 'released' and m.health = 'offline' and not m.online and not m.retired
          and m.health_changed_at <= ${cutoff}
          and not exists (select 1 from port_replacements r where r.port_id = p.id and r.queued_since is not null)
        limit ${PLAN_BATCH})
      union
      (select r.port_id from port_replacements r join ports p on p.id = r.port_id join modems o on o.id = p.modem_id
        where r.queued_since is not null
          and exists (select 1 from modems m
            where m.country_id = o.country_id and m.carrier_id = o.carrier_id and m.is_shared = o.is_shared
              and (o.region_id is null or m.region_id = o.region_id)
              and (not o.is_shared or m.rotation_interval = o.rotation_interval)
              and m.online and m.health = 'online' and not m.retired and m.maintenance_since is null
              and m.used_slots < m.capacity and m.id <> o.id)
        limit ${PLAN_BATCH})`.execute(this.deps.db);
    if (rows.length === 0) return;
    await this.deps.jobs.schedule(this.deps.db, rows.map((r) => ({
      kind: JOBS.portReplace, key: `${REPLACEMENT_JOB}:${r.id}`, runAt: now, payload: { portId: r.id },
    })), { rearmDone: true });
  }

  /** One port's automatic move (or its turn in the queue), in the job's transaction. */
  private async runJob(tx: Tx, portId: string, now: Date): Promise<void> {
    const port = await this.lockPort(tx, portId);
    if (!port) return;
    const queue = await tx.selectFrom('port_replacements').select(['queued_since', 'queued_reason'])
      .where('port_id', '=', portId).forUpdate().executeTakeFirst();
    const queued = queue?.queued_since ? queue.queued_reason ?? 'offline' : null;
    if (port.status === 'released') {
      if (queued) await this.unqueue(tx, portId);
      return;
    }
    const cutoff = now.getTime() - (await this.afterMinutes()) * 60_000;
    const offlineTooLong = port.health === 'offline' && !port.retired && port.health_changed_at !== null
      && port.health_changed_at.getTime() <= cutoff;
    if (queued === 'offline' && port.health !== 'offline') {
      // The modem came back before another was free: the port stays where it is.
      await this.unqueue(tx, portId);
      return;
    }
    const reason: Reason | null = queued ?? (offlineTooLong ? 'offline' : null);
    if (!reason) return;
    await this.moveOrQueue(tx, port, reason, reason === 'offline' ? SYSTEM : { ...SYSTEM, customerId: port.user_id });
  }

  /**
   * POST /api/v1/modems/:id/replacement: the customer asks for another modem for their port, at most once in 24 h.
   * It moves now when a modem is free, else it waits in the queue (the customer is told once).
   */
  async request(userId: string, portId: string, ip: string): Promise<ReplacementResponse> {
    return this.deps.db.transaction().execute(async (tx) => {
      const port = await this.lockPort(tx, portId, userId);
      if (!port || port.status === 'released') throw notFound();
      if (port.status === 'expired' || port.expires_at.getTime() <= Date.now()) throw new AppError('PORT_EXPIRED');
      const last = await tx.selectFrom('port_replacements').select('customer_requested_at')
        .where('port_id', '=', portId).forUpdate().executeTakeFirst();
      const limitMs = REPLACEMENT_LIMITS.customerRequestHours * HOUR_MS;
      const nowMs = Date.now();
      if (last?.customer_requested_at && last.customer_requested_at.getTime() + limitMs > nowMs) {
        const retryAt = new Date(last.customer_requested_at.getTime() + limitMs);
        const hours = Math.max(1, Math.ceil((retryAt.getTime() - nowMs) / HOUR_MS));
        throw new AppError('REPLACEMENT_TOO_SOON', 429,
          `You can ask for a new modem for this port once a day. Try again in ${hours} h.`,
          { retryAt: retryAt.toISOString(), hours, retryAfter: Math.max(1, Math.ceil((retryAt.getTime() - nowMs) / 1000)) });
      }
      const at = new Date(nowMs);
      await tx.insertInto('port_replacements').values({ port_id: portId, customer_requested_at: at })
        .onConflict((oc) => oc.column('port_id').doUpdateSet({ customer_requested_at: at })).execute();
      const moved = await this.moveOrQueue(tx, port, 'customer', { adminId: null, ip, customerId: userId });
      return {
        status: moved ? 'moved' : 'queued',
        IMEI: moved?.imei ?? port.imei,
        nextRequestAt: new Date(nowMs + limitMs).toISOString(),
        ...(moved ? { addressKept: moved.addressKept } : {}),
      };
    });
  }

  /** POST /admin/modems/:id/return-to-service: the modem is for sale and a replacement target again. */
  async returnToService(actor: { adminId: string; ip: string }, modemId: string): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      const before = await tx.selectFrom('modems').select(['id', 'imei', 'maintenance_since', 'maintenance_reason'])
        .where('id', '=', modemId).forUpdate().executeTakeFirst();
      if (!before) throw notFound();
      if (!before.maintenance_since) return;
      await tx.updateTable('modems').set({ maintenance_since: null, maintenance_reason: null }).where('id', '=', modemId).execute();
      await this.deps.audit.record(tx, actor, {
        action: 'modem.return_to_service', targetType: 'modem', targetId: modemId,
        before: { imei: before.imei, maintenanceSince: before.maintenance_since.toISOString(), maintenanceReason: before.maintenance_reason },
        after: { imei: before.imei, maintenanceSince: null },
      });
    });
  }

  /** Ports waiting for a free modem (the console's overview shows the count). */
  async queuedCount(): Promise<number> {
    const row = await this.deps.db.selectFrom('port_replacements').select(sql<string>`count(*)`.as('n'))
      .where('queued_since', 'is not', null).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  private lockPort(tx: Tx, portId: string, userId?: string): Promise<PortOnModem | undefined> {
    let q = tx.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id')
      .innerJoin('hosts as h', 'h.id', 'm.host_id').leftJoin('gateways as g', 'g.id', 'h.gateway_id')
      .select([
        'p.id', 'p.user_id', 'p.name', 'p.status', 'p.expires_at', 'p.modem_id', 'm.imei', 'm.host_id', 'm.country_id',
        'm.carrier_id', 'm.region_id', 'm.is_shared', 'm.rotation_interval', 'm.health', 'm.health_changed_at', 'm.retired',
        'p.http_port', 'p.socks_port', 'h.gateway_id',
      ])
      .select((eb) => eb.fn.coalesce('g.public_host', 'h.address').as('address'))
      .where('p.id', '=', portId);
    if (userId) q = q.where('p.user_id', '=', userId);
    return q.forUpdate('p').executeTakeFirst();
  }

  private async unqueue(tx: Tx, portId: string): Promise<void> {
    await tx.updateTable('port_replacements').set({ queued_since: null, queued_reason: null, queued_told: false })
      .where('port_id', '=', portId).execute();
  }

  /**
   * Takes a free modem for the port and moves it there, or puts the port in the queue (telling the customer once).
   * Returns the new modem, or null when the port waits.
   */
  private async moveOrQueue(tx: Tx, port: PortOnModem, reason: Reason, actor: Actor): Promise<{ id: string; imei: string; addressKept: boolean } | null> {
    const filter: StockFilter = {
      countryId: port.country_id, carrierId: port.carrier_id, regionId: port.region_id, isShared: port.is_shared,
      rotationInterval: port.rotation_interval ?? 0,
      replacing: { modemId: port.modem_id, hostId: port.host_id, ...(port.gateway_id ? { gatewayId: port.gateway_id } : {}) },
    };
    let target: string | undefined;
    if (!port.is_shared) {
      target = (await this.deps.purchases.takeDedicated(tx, filter, 1))[0];
    } else {
      target = (await this.deps.purchases.lockShared(tx, filter))[0]?.id;
      if (target) await this.deps.purchases.addUsedSlots(tx, target, 1);
    }
    const { audit, notifications } = this.deps;
    const requestedBy = actor.customerId ? { customer: actor.customerId } : 'system';
    if (!target) {
      const before = await tx.selectFrom('port_replacements').select(['queued_since', 'queued_told'])
        .where('port_id', '=', port.id).executeTakeFirst();
      await tx.insertInto('port_replacements')
        .values({ port_id: port.id, queued_since: sql`now()`, queued_reason: reason, queued_told: true })
        .onConflict((oc) => oc.column('port_id').doUpdateSet({
          queued_since: sql`coalesce(port_replacements.queued_since, now())`,
          queued_reason: sql`coalesce(port_replacements.queued_reason, excluded.queued_reason)`,
          queued_told: true,
        })).execute();
      if (!(before?.queued_since && before.queued_told)) {
        await audit.record(tx, actor, {
          action: 'port.replace.queued', targetType: 'port', targetId: port.id,
          before: { modemId: port.modem_id, imei: port.imei }, after: { queued: true, reason, requestedBy },
        });
        await notifications.notify(port.user_id, 'other', 'port_replacement_queued', { name: port.name, port: port.id }, tx);
        // The operators hear when the queue starts (not of every port in it): stock is short until they act.
        const { waiting } = await tx.selectFrom('port_replacements').select((eb) => eb.fn.countAll<string>().as('waiting'))
          .where('queued_since', 'is not', null).executeTakeFirstOrThrow();
        if (Number(waiting) === 1) await notifications.alertOperators(tx, 'operator_replacement_queued', { port: port.name, imei: port.imei });
      }
      return null;
    }

    await tx.updateTable('ports').set({ modem_id: target }).where('id', '=', port.id).execute();
    // The port keeps its own listening ports wherever it goes (decision 045), unless they are in use there. The
    // address stays when the customer also reaches the same host: the same host, or another behind the same gateway
    // (which points the numbers at the new host). A direct move to another host keeps the ports, not the host name.
    const targetHost = await tx.selectFrom('modems as m').innerJoin('hosts as h', 'h.id', 'm.host_id')
      .leftJoin('gateways as g', 'g.id', 'h.gateway_id')
      .select(['m.host_id']).select((eb) => eb.fn.coalesce('g.public_host', 'h.address').as('address'))
      .where('m.id', '=', target).executeTakeFirstOrThrow();
    const numbers = await settleListeningPorts(tx, port.id, targetHost.host_id, { http: port.http_port, socks: port.socks_port });
    const addressKept = numbers.kept && targetHost.address === port.address;
    // The old modem goes into maintenance, unless it is a shared one a customer only asked to leave (others stay on it).
    const maintenance = reason === 'offline' || !port.is_shared;
    await tx.updateTable('modems').set({
      used_slots: sql`greatest(used_slots - 1, 0)`,
      ...(maintenance ? {
        maintenance_since: sql`coalesce(maintenance_since, now())`,
        maintenance_reason: sql`coalesce(maintenance_reason, ${reason === 'offline' ? 'offline too long' : 'replaced at a customer\'s request'})`,
      } : {}),
    }).where('id', '=', port.modem_id).execute();
    await tx.insertInto('port_replacements').values({ port_id: port.id, moves: 1, last_moved_at: sql`now()` })
      .onConflict((oc) => oc.column('port_id').doUpdateSet({
        queued_since: null, queued_reason: null, queued_told: false,
        moves: sql`port_replacements.moves + 1`, last_moved_at: sql`now()`,
      })).execute();
    const next = await tx.selectFrom('modems as m').innerJoin('hosts as h', 'h.id', 'm.host_id')
      .leftJoin('gateways as g', 'g.id', 'h.gateway_id')
      .select(['m.id', 'm.imei', 'm.ext_ip', 'h.name as host_name'])
      .select((eb) => eb.fn.coalesce('g.public_host', 'h.address').as('address'))
      .where('m.id', '=', target).executeTakeFirstOrThrow();
    await audit.record(tx, actor, {
      action: 'port.replace', targetType: 'port', targetId: port.id,
      before: { modemId: port.modem_id, imei: port.imei, hostId: port.host_id, maintenance },
      after: { modemId: next.id, imei: next.imei, host: next.host_name, httpPort: numbers.http, socksPort: numbers.socks, reason, requestedBy, addressKept },
    });
    await notifications.notify(port.user_id, 'other', reason === 'offline' ? 'port_replaced_offline' : 'port_replaced', {
      name: port.name, port: port.id, host: next.address, httpPort: numbers.http, socksPort: numbers.socks,
      ...(addressKept ? { cause: ADDRESS_KEPT } : {}),
    }, tx);
    return { id: next.id, imei: next.imei, addressKept };
  }
}
