import { CATALOG_LIMITS, type ApplyStatus } from '@cellport/shared/schemas/catalog';
import type { WebhookEventType } from '@cellport/shared/schemas/webhooks';
import { ModemOfflineError, RotationCollisionError, type ModemDriver } from '../../integrations/modem-control/modem-control.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { Bus } from '../../lib/bus.js';
import type { NotificationsService } from '../notifications/index.js';
import { TOPICS } from '../../lib/bus-topics.js';
import type { ClaimedModem, RotatablePort, RotationRepository } from './rotation.repository.js';

/** How many times a rotation that came back with the same IP is tried again. */
export const SAME_IP_RETRIES = 3;
/** A rotation still 'rotating' after this long was interrupted (a restart): the modem may be taken again. */
const STALE_ROTATION_MS = 120_000;
const WAIT_LIMIT_MS = 20_000;

/** Publishes a customer's webhook event on its own (a rotation has no transaction to join): webhooks' publishWebhookEvent. */
export type PublishWebhookEvent = (userId: string, type: WebhookEventType, data: Record<string, unknown>) => Promise<void>;

export interface RotationResult { old_ip: string; new_ip: string; applyStatus: ApplyStatus }

/**
 * A shared port's IP is every co-tenant's IP: only its modem's schedule changes it (issue 27, item 4), never one
 * customer on demand. 409 SHARED_PORT_ROTATION, with `nextRotationAt` (null: the modem has no schedule).
 * Operators may one day allow on-demand rotation on a tariff when every co-tenant agreed; until then, no exception.
 */
export async function sharedRotationRefusal(repo: RotationRepository, modemId: string): Promise<AppError> {
  const dueAt = await repo.modemRotationDue(modemId);
  return new AppError('SHARED_PORT_ROTATION', 409, undefined, { nextRotationAt: dueAt?.toISOString() ?? null });
}

/**
 * Rotates the IP of the modem behind a port through the modem-control driver: at most once a minute per port,
 * one rotation at a time per modem, applyStatus published on the bus for the realtime layer.
 */
export class RotationService {
  constructor(
    private readonly repo: RotationRepository,
    private readonly bus: Bus,
    private readonly driver: ModemDriver,
    private readonly notifications: NotificationsService,
    private readonly publishWebhookEvent: PublishWebhookEvent,
  ) {}

  /**
   * Rotation by a signed-in customer (button, API, MCP, Telegram): a port of someone else is simply not found, and a
   * shared port is refused (it rotates on its modem's schedule).
   */
  async rotateOwnPort(userId: string, portId: string): Promise<RotationResult> {
    const port = await this.repo.ownPort(userId, portId);
    if (!port) throw notFound();
    if (port.is_shared) throw await sharedRotationRefusal(this.repo, port.modem_id);
    return this.rotate(port);
  }

  /** The rotation link: refused for a shared port like the button. */
  async rotateByTokenHash(tokenHash: string): Promise<RotationResult> {
    const port = await this.repo.portByTokenHash(tokenHash);
    if (!port) throw notFound();
    if (port.is_shared) throw await sharedRotationRefusal(this.repo, port.modem_id);
    return this.rotate(port);
  }

  /** The interval schedule's rotation of a dedicated port: the same checks and per-port cooldown as a click. */
  async rotatePortOnSchedule(portId: string): Promise<RotationResult> {
    const port = await this.repo.livePort(portId);
    if (!port) throw notFound();
    return this.rotate(port);
  }

  /**
   * The schedule of a shared modem: one rotation for every customer on it. The cooldown applies to the modem — a
   * customer who rotated it within the minute already gave everyone a new IP.
   */
  async rotateModemOnSchedule(modemId: string): Promise<RotationResult> {
    const cooldown = CATALOG_LIMITS.rotationCooldownSeconds;
    if (await this.repo.modemRotatedWithin(modemId, cooldown)) throw new AppError('ROTATION_TOO_SOON', 429, undefined, { retryAfter: cooldown });
    const modem = await this.claimModem(modemId);
    if (!modem) throw await this.modemBusy(modemId);
    try {
      return await this.raceLimit(this.drive(modem));
    } catch (err) {
      throw err instanceof ModemOfflineError ? new AppError('MODEM_OFFLINE') : err;
    }
  }

  private async rotate(port: RotatablePort): Promise<RotationResult> {
    if (port.status !== 'active' || port.expires_at.getTime() <= Date.now()) throw new AppError('PORT_EXPIRED');
    // Claim the per-port minute atomically: two clicks at once cannot both pass.
    if (!(await this.repo.claimPortMinute(port.id, CATALOG_LIMITS.rotationCooldownSeconds))) throw await this.tooSoon(port.id);

    // Give the minute back when nothing happened for this port: the modem is busy or offline.
    const giveBack = () => this.repo.restorePortRotatedAt(port.id, port.last_rotated_at);
    const modem = await this.claimModem(port.modem_id);
    if (!modem) {
      await giveBack();
      throw await this.modemBusy(port.modem_id);
    }
    try {
      return await this.raceLimit(this.drive(modem));
    } catch (err) {
      if (!(err instanceof ModemOfflineError)) throw err;
      await giveBack();
      throw new AppError('MODEM_OFFLINE');
    }
  }

  /**
   * One rotation at a time per modem: takes it unless it is offline or another rotation is under way. Returns the
   * modem's status and last rotation from before the claim (a subquery in RETURNING reads the row as it was), so an
   * offline agent can leave the modem exactly as it found it.
   */
  private claimModem(modemId: string): Promise<ClaimedModem | undefined> {
    return this.repo.claimModem(modemId, STALE_ROTATION_MS / 1000);
  }

  private async modemBusy(modemId: string): Promise<AppError> {
    if (!(await this.repo.modemOnline(modemId))) return new AppError('MODEM_OFFLINE');
    // Another port on the same (shared) modem is rotating it right now.
    return new AppError('ROTATION_TOO_SOON', 429, undefined, { retryAfter: 5 });
  }

  private async raceLimit(work: Promise<RotationResult>): Promise<RotationResult> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_r, reject) => {
      timer = setTimeout(() => reject(new AppError('ROTATION_FAILED')), WAIT_LIMIT_MS);
    });
    try {
      return await Promise.race([work, timeout]);
    } finally {
      clearTimeout(timer);
      work.catch(() => {}); // a timed-out rotation finishes (and records itself) in the background
    }
  }

  private async drive(modem: ClaimedModem): Promise<RotationResult> {
    const { id: modemId, imei, ext_ip: oldIp } = modem;
    const publish = (applyStatus: ApplyStatus, extIp: string) => this.publishStatus(modemId, imei, applyStatus, extIp);
    await publish('rotating', oldIp);
    let newIp = oldIp;
    // Status writes are chained and awaited before the final one, so 'applying' can never land after 'idle'.
    let statusWrites: Promise<unknown> = Promise.resolve();
    let attempt = 0;
    try {
      for (; attempt <= SAME_IP_RETRIES && newIp === oldIp; attempt++) {
        const result = await this.driver.rotate({ id: modemId, imei, extIp: oldIp }, (status) => {
          statusWrites = statusWrites
            .then(() => this.repo.setApplyStatus(modemId, status))
            .then(() => publish(status, oldIp)).catch(() => {});
        });
        newIp = result.extIp;
      }
      await statusWrites;
    } catch (err) {
      await statusWrites;
      if (err instanceof ModemOfflineError && attempt === 0) {
        // Nobody could reach the modem, so nothing happened to it: it is offline, as it was before the claim, and
        // the caller gives the customer's rotation slot back.
        const status = modem.prev_status === 'rotating' || modem.prev_status === 'applying' ? 'idle' : modem.prev_status;
        await this.repo.restoreUnreachedModem(modemId, status, modem.prev_rotated_at);
        await publish(status, oldIp);
        throw err;
      }
      await this.finish(modemId, 'failed', oldIp);
      await publish('failed', oldIp);
      await this.notifyFailed(modemId);
      // The agent already reconnected the modem several times and got the same IP: say so, rather than "try again".
      if (err instanceof RotationCollisionError) throw new AppError('ROTATION_IP_COLLISION');
      throw new AppError('ROTATION_FAILED');
    }
    const status: ApplyStatus = newIp === oldIp ? 'failed' : 'idle';
    await this.finish(modemId, status, newIp);
    await publish(status, newIp);
    if (status === 'failed') await this.notifyFailed(modemId);
    else await this.announceRotated(modemId, oldIp, newIp);
    return { old_ip: oldIp, new_ip: newIp, applyStatus: status };
  }

  private async finish(modemId: string, status: ApplyStatus, extIp: string): Promise<void> {
    await this.repo.finishRotation(modemId, status, extIp);
  }

  /** Tells every customer with a port on the modem (the realtime issue forwards it to their browsers). */
  private async publishStatus(modemId: string, imei: string, applyStatus: ApplyStatus, extIp: string): Promise<void> {
    const userIds = await this.repo.modemCustomers(modemId);
    await this.bus.publish(TOPICS.modemStatus, { userIds, IMEI: imei, applyStatus, ext_ip: extIp })
      .catch(() => {});
  }

  /** A failed rotation is a notification for every customer with a port on the modem. */
  private async notifyFailed(modemId: string): Promise<void> {
    for (const port of await this.repo.activePortsOn(modemId)) {
      await this.notifications.notify(port.user_id, 'other', 'rotation_failed', { name: port.name }).catch(() => {});
      await this.publishWebhookEvent(port.user_id, 'port.rotation_failed', { port: { id: port.id, name: port.name } }).catch(() => {});
    }
  }

  /** port.rotated for every customer with an active port on the modem. */
  private async announceRotated(modemId: string, oldIp: string, newIp: string): Promise<void> {
    for (const port of await this.repo.activePortsOn(modemId)) {
      await this.publishWebhookEvent(port.user_id, 'port.rotated', { port: { id: port.id, name: port.name }, oldIp, newIp })
        .catch(() => {});
    }
  }

  private async tooSoon(portId: string): Promise<AppError> {
    const wait = await this.repo.secondsUntilRotation(portId, CATALOG_LIMITS.rotationCooldownSeconds);
    const retryAfter = Math.max(1, Number(wait ?? CATALOG_LIMITS.rotationCooldownSeconds));
    return new AppError('ROTATION_TOO_SOON', 429,
      `You can rotate this port once a minute. Try again in ${retryAfter} s.`, { retryAfter });
  }
}
