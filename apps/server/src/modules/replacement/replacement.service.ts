import { REPLACEMENT_LIMITS, type ReplacementResponse } from '@cellport/shared/schemas/replacement';
import type { Tx } from '../../db/database.js';
import type { JobQueue } from '../../jobs/queue.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { AuditLog } from '../audit/index.js';
import { portNameText, type NotificationsService } from '../notifications/index.js';
import type { PurchasesRepository, StockFilter } from '../purchases/index.js';
import { ADDRESS_KEPT, settleListeningPorts } from './keep-address.js';
import type { PortOnModem, ReplacementRepository } from './replacement.repository.js';
import { JOBS } from '../../jobs/job-kinds.js';

export const REPLACEMENT_JOB = JOBS.portReplace.name;
const HOUR_MS = 3_600_000;
const PLAN_BATCH = 200;

type Reason = 'offline' | 'customer';
/** Who an audit row names: 'system' for the automatic move, the customer's request from their address. */
interface Actor { adminId: null; ip: string; customerId?: string }
const SYSTEM: Actor = { adminId: null, ip: 'system' };

export interface ReplacementDeps {
  repo: ReplacementRepository;
  jobs: JobQueue;
  purchases: PurchasesRepository;
  notifications: NotificationsService;
  audit: AuditLog;
  /** The console's settings (OperatorSettingsCache): read from memory, no query per run. */
  settings: { overrides(): Promise<{ replacementAfterMinutes?: number }> };
  /** REPLACEMENT_AFTER_MINUTES: the default when the console has no setting. */
  defaultAfterMinutes: number;
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
    const ids = await this.deps.repo.portsToMove(cutoff, PLAN_BATCH);
    if (ids.length === 0) return;
    // Scheduled in a transaction of its own (the repository holds the database; decision 044).
    await this.deps.repo.transaction((tx) => this.deps.jobs.schedule(tx, ids.map((id) => ({
      kind: JOBS.portReplace, key: `${REPLACEMENT_JOB}:${id}`, runAt: now, payload: { portId: id },
    })), { rearmDone: true }));
  }

  /** One port's automatic move (or its turn in the queue), in the job's transaction. */
  private async runJob(tx: Tx, portId: string, now: Date): Promise<void> {
    const port = await this.deps.repo.lockPort(tx, portId);
    if (!port) return;
    const queue = await this.deps.repo.lockQueueEntry(tx, portId);
    const queued = queue?.queued_since ? queue.queued_reason ?? 'offline' : null;
    if (port.status === 'released') {
      if (queued) await this.deps.repo.unqueue(tx, portId);
      return;
    }
    const cutoff = now.getTime() - (await this.afterMinutes()) * 60_000;
    const offlineTooLong = port.health === 'offline' && !port.retired && port.health_changed_at !== null
      && port.health_changed_at.getTime() <= cutoff;
    if (queued === 'offline' && port.health !== 'offline') {
      // The modem came back before another was free: the port stays where it is.
      await this.deps.repo.unqueue(tx, portId);
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
    const { repo } = this.deps;
    return repo.transaction(async (tx) => {
      const port = await repo.lockPort(tx, portId, userId);
      if (!port || port.status === 'released') throw notFound();
      if (port.status === 'expired' || port.expires_at.getTime() <= Date.now()) throw new AppError('PORT_EXPIRED');
      const last = await repo.lockCustomerRequest(tx, portId);
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
      await repo.recordCustomerRequest(tx, portId, at);
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
    const { repo } = this.deps;
    await repo.transaction(async (tx) => {
      const before = await repo.lockMaintenance(tx, modemId);
      if (!before) throw notFound();
      if (!before.maintenance_since) return;
      await repo.endMaintenance(tx, modemId);
      await this.deps.audit.record(tx, actor, {
        action: 'modem.return_to_service', targetType: 'modem', targetId: modemId,
        before: { imei: before.imei, maintenanceSince: before.maintenance_since.toISOString(), maintenanceReason: before.maintenance_reason },
        after: { imei: before.imei, maintenanceSince: null },
      });
    });
  }

  /** Ports waiting for a free modem (the console's overview shows the count). */
  queuedCount(): Promise<number> {
    return this.deps.repo.queuedCount();
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
    const { audit, notifications, repo } = this.deps;
    const requestedBy = actor.customerId ? { customer: actor.customerId } : 'system';
    if (!target) {
      const before = await repo.queueEntry(tx, port.id);
      await repo.enqueue(tx, port.id, reason);
      if (!(before?.queued_since && before.queued_told)) {
        await audit.record(tx, actor, {
          action: 'port.replace.queued', targetType: 'port', targetId: port.id,
          before: { modemId: port.modem_id, imei: port.imei }, after: { queued: true, reason, requestedBy },
        });
        await notifications.notify(port.user_id, 'other', 'port_replacement_queued', { name: portNameText(port), port: port.id }, tx);
        // The operators hear when the queue starts (not of every port in it): stock is short until they act.
        if (await repo.queuedCount(tx) === 1) await notifications.alertOperators(tx, 'operator_replacement_queued', { port: port.name, imei: port.imei });
      }
      return null;
    }

    await repo.moveToModem(tx, port.id, target);
    // The port keeps its own listening ports wherever it goes (decision 045), unless they are in use there. The
    // address stays when the customer also reaches the same host: the same host, or another behind the same gateway
    // (which points the numbers at the new host). A direct move to another host keeps the ports, not the host name.
    const targetHost = await repo.modemHost(tx, target);
    const numbers = await settleListeningPorts(repo, tx, port.id, targetHost.host_id, { http: port.http_port, socks: port.socks_port });
    const addressKept = numbers.kept && targetHost.address === port.address;
    // The old modem goes into maintenance, unless it is a shared one a customer only asked to leave (others stay on it).
    const maintenance = reason === 'offline' || !port.is_shared;
    await repo.releaseOldModem(tx, port.modem_id,
      maintenance ? (reason === 'offline' ? 'offline too long' : 'replaced at a customer\'s request') : null);
    await repo.recordMove(tx, port.id);
    const next = await repo.modemForNotice(tx, target);
    await audit.record(tx, actor, {
      action: 'port.replace', targetType: 'port', targetId: port.id,
      before: { modemId: port.modem_id, imei: port.imei, hostId: port.host_id, maintenance },
      after: { modemId: next.id, imei: next.imei, host: next.host_name, httpPort: numbers.http, socksPort: numbers.socks, reason, requestedBy, addressKept },
    });
    await notifications.notify(port.user_id, 'other', reason === 'offline' ? 'port_replaced_offline' : 'port_replaced', {
      name: portNameText(port), port: port.id, host: next.address, httpPort: numbers.http, socksPort: numbers.socks,
      ...(addressKept ? { cause: ADDRESS_KEPT } : {}),
    }, tx);
    return { id: next.id, imei: next.imei, addressKept };
  }
}
