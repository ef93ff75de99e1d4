import { CATALOG_LIMITS, type ApplyStatus } from '@cellport/shared/schemas/catalog';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { ModemOfflineError, RotationCollisionError, type ModemDriver } from '../../integrations/modem-control/modem-control.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { Bus } from '../../lib/bus.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import { publishWebhookEvent } from '../webhooks/webhook-events.js';
import { TOPICS } from '../../lib/bus-topics.js';

/** How many times a rotation that came back with the same IP is tried again. */
export const SAME_IP_RETRIES = 3;
/** A rotation still 'rotating' after this long was interrupted (a restart): the modem may be taken again. */
const STALE_ROTATION_MS = 120_000;
const WAIT_LIMIT_MS = 20_000;

interface ClaimedModem { id: string; imei: string; ext_ip: string; prev_status: ApplyStatus; prev_rotated_at: Date | null }

export interface RotationResult { old_ip: string; new_ip: string; applyStatus: ApplyStatus }

/**
 * A shared port's IP is every co-tenant's IP: only its modem's schedule changes it (issue 27, item 4), never one
 * customer on demand. 409 SHARED_PORT_ROTATION, with `nextRotationAt` (null: the modem has no schedule).
 * Operators may one day allow on-demand rotation on a tariff when every co-tenant agreed; until then, no exception.
 */
export async function sharedRotationRefusal(db: Database, modemId: string): Promise<AppError> {
  const modem = await db.selectFrom('modems').select('rotation_due_at').where('id', '=', modemId).executeTakeFirst();
  return new AppError('SHARED_PORT_ROTATION', 409, undefined, { nextRotationAt: modem?.rotation_due_at?.toISOString() ?? null });
}

/**
 * Rotates the IP of the modem behind a port through the modem-control driver: at most once a minute per port,
 * one rotation at a time per modem, applyStatus published on the bus for the realtime layer.
 */
export class RotationService {
  constructor(
    private readonly db: Database,
    private readonly bus: Bus,
    private readonly driver: ModemDriver,
    private readonly notifications: NotificationsService,
  ) {}

  /**
   * Rotation by a signed-in customer (button, API, MCP, Telegram): a port of someone else is simply not found, and a
   * shared port is refused (it rotates on its modem's schedule).
   */
  async rotateOwnPort(userId: string, portId: string): Promise<RotationResult> {
    const port = await this.db.selectFrom('ports').select(['id', 'modem_id', 'is_shared', 'status', 'expires_at', 'last_rotated_at'])
      .where('id', '=', portId).where('user_id', '=', userId).where('status', '<>', 'released').executeTakeFirst();
    if (!port) throw notFound();
    if (port.is_shared) throw await sharedRotationRefusal(this.db, port.modem_id);
    return this.rotate(port);
  }

  /** The rotation link: refused for a shared port like the button. */
  async rotateByTokenHash(tokenHash: string): Promise<RotationResult> {
    const port = await this.db.selectFrom('ports').select(['id', 'modem_id', 'is_shared', 'status', 'expires_at', 'last_rotated_at'])
      .where('rotation_token_hash', '=', tokenHash).where('status', '<>', 'released').executeTakeFirst();
    if (!port) throw notFound();
    if (port.is_shared) throw await sharedRotationRefusal(this.db, port.modem_id);
    return this.rotate(port);
  }

  /** The interval schedule's rotation of a dedicated port: the same checks and per-port cooldown as a click. */
  async rotatePortOnSchedule(portId: string): Promise<RotationResult> {
    const port = await this.db.selectFrom('ports').select(['id', 'modem_id', 'status', 'expires_at', 'last_rotated_at'])
      .where('id', '=', portId).where('status', '<>', 'released').executeTakeFirst();
    if (!port) throw notFound();
    return this.rotate(port);
  }

  /**
   * The schedule of a shared modem: one rotation for every customer on it. The cooldown applies to the modem — a
   * customer who rotated it within the minute already gave everyone a new IP.
   */
  async rotateModemOnSchedule(modemId: string): Promise<RotationResult> {
    const cooldown = CATALOG_LIMITS.rotationCooldownSeconds;
    const recent = await this.db.selectFrom('modems').select('id').where('id', '=', modemId)
      .where('last_rotated_at', '>', sql<Date>`now() - make_interval(secs => ${cooldown})`).executeTakeFirst();
    if (recent) throw new AppError('ROTATION_TOO_SOON', 429, undefined, { retryAfter: cooldown });
    const modem = await this.claimModem(modemId);
    if (!modem) throw await this.modemBusy(modemId);
    try {
      return await this.raceLimit(this.drive(modem));
    } catch (err) {
      throw err instanceof ModemOfflineError ? new AppError('MODEM_OFFLINE') : err;
    }
  }

  private async rotate(port: { id: string; modem_id: string; status: string; expires_at: Date; last_rotated_at: Date | null }): Promise<RotationResult> {
    if (port.status !== 'active' || port.expires_at.getTime() <= Date.now()) throw new AppError('PORT_EXPIRED');
    const cooldown = CATALOG_LIMITS.rotationCooldownSeconds;
    // Claim the per-port minute atomically: two clicks at once cannot both pass.
    const claimed = await this.db.updateTable('ports').set({ last_rotated_at: sql`now()` })
      .where('id', '=', port.id)
      .where((eb) => eb.or([
        eb('last_rotated_at', 'is', null),
        eb('last_rotated_at', '<=', sql<Date>`now() - make_interval(secs => ${cooldown})`),
      ]))
      .returning('id').executeTakeFirst();
    if (!claimed) throw await this.tooSoon(port.id);

    // Give the minute back when nothing happened for this port: the modem is busy or offline.
    const giveBack = () => this.db.updateTable('ports').set({ last_rotated_at: port.last_rotated_at }).where('id', '=', port.id).execute();
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
  private claimModem(modemId: string) {
    return this.db.updateTable('modems')
      .set({ apply_status: 'rotating', last_rotated_at: sql`now()` })
      .where('id', '=', modemId).where('online', '=', true)
      .where((eb) => eb.or([
        eb('apply_status', 'in', ['idle', 'failed']),
        eb('last_rotated_at', '<', sql<Date>`now() - make_interval(secs => ${STALE_ROTATION_MS / 1000})`),
      ]))
      .returning(['id', 'imei', 'ext_ip',
        sql<ApplyStatus>`(select m0.apply_status from modems m0 where m0.id = modems.id)`.as('prev_status'),
        sql<Date | null>`(select m0.last_rotated_at from modems m0 where m0.id = modems.id)`.as('prev_rotated_at'),
      ]).executeTakeFirst();
  }

  private async modemBusy(modemId: string): Promise<AppError> {
    const online = await this.db.selectFrom('modems').select('online').where('id', '=', modemId).executeTakeFirst();
    if (!online?.online) return new AppError('MODEM_OFFLINE');
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
            .then(() => this.db.updateTable('modems').set({ apply_status: status }).where('id', '=', modemId).execute())
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
        await this.db.updateTable('modems')
          .set({ apply_status: status, last_rotated_at: modem.prev_rotated_at, online: false })
          .where('id', '=', modemId).execute();
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
    await this.db.updateTable('modems').set({ apply_status: status, ext_ip: extIp, last_rotated_at: sql`now()` })
      .where('id', '=', modemId).execute();
  }

  /** Tells every customer with a port on the modem (the realtime issue forwards it to their browsers). */
  private async publishStatus(modemId: string, imei: string, applyStatus: ApplyStatus, extIp: string): Promise<void> {
    const users = await this.db.selectFrom('ports').select('user_id').distinct()
      .where('modem_id', '=', modemId).where('status', '<>', 'released').execute();
    await this.bus.publish(TOPICS.modemStatus, { userIds: users.map((u) => u.user_id), IMEI: imei, applyStatus, ext_ip: extIp })
      .catch(() => {});
  }

  /** A failed rotation is a notification for every customer with a port on the modem. */
  private async notifyFailed(modemId: string): Promise<void> {
    const ports = await this.db.selectFrom('ports').select(['id', 'user_id', 'name'])
      .where('modem_id', '=', modemId).where('status', '=', 'active').execute();
    for (const port of ports) {
      await this.notifications.notify(port.user_id, 'other', 'rotation_failed', { name: port.name }).catch(() => {});
      await publishWebhookEvent(this.db, port.user_id, 'port.rotation_failed', { port: { id: port.id, name: port.name } }).catch(() => {});
    }
  }

  /** port.rotated for every customer with an active port on the modem. */
  private async announceRotated(modemId: string, oldIp: string, newIp: string): Promise<void> {
    const ports = await this.db.selectFrom('ports').select(['id', 'user_id', 'name'])
      .where('modem_id', '=', modemId).where('status', '=', 'active').execute();
    for (const port of ports) {
      await publishWebhookEvent(this.db, port.user_id, 'port.rotated', { port: { id: port.id, name: port.name }, oldIp, newIp })
        .catch(() => {});
    }
  }

  private async tooSoon(portId: string): Promise<AppError> {
    const row = await this.db.selectFrom('ports')
      .select(sql<number>`ceil(extract(epoch from (last_rotated_at + make_interval(secs => ${CATALOG_LIMITS.rotationCooldownSeconds}) - now())))::int`.as('wait'))
      .where('id', '=', portId).executeTakeFirst();
    const retryAfter = Math.max(1, Number(row?.wait ?? CATALOG_LIMITS.rotationCooldownSeconds));
    return new AppError('ROTATION_TOO_SOON', 429,
      `You can rotate this port once a minute. Try again in ${retryAfter} s.`, { retryAfter });
  }
}
