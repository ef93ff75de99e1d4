import type { ApplyStatus } from '@cellport/shared/schemas/catalog';
import { sql } from 'kysely';
import type { Database, Tx } from '../../db/database.js';

/** A modem taken for one rotation, with its status and last rotation from before the claim. */
export interface ClaimedModem { id: string; imei: string; ext_ip: string; prev_status: ApplyStatus; prev_rotated_at: Date | null }

/** A port as a rotation checks it. */
export interface RotatablePort { id: string; modem_id: string; status: string; expires_at: Date; last_rotated_at: Date | null }

/**
 * The rotations' queries (rotation.service.ts) and the interval chains' (interval-rotation.ts): the per-port minute
 * and the per-modem claim, each one conditional update, and the due times the chains record.
 */
export class RotationRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** The customer's live port (someone else's is simply not found). */
  ownPort(userId: string, portId: string): Promise<(RotatablePort & { is_shared: boolean }) | undefined> {
    return this.db.selectFrom('ports').select(['id', 'modem_id', 'is_shared', 'status', 'expires_at', 'last_rotated_at'])
      .where('id', '=', portId).where('user_id', '=', userId).where('status', '<>', 'released').executeTakeFirst();
  }

  /** The live port a rotation link's token opens. */
  portByTokenHash(tokenHash: string): Promise<(RotatablePort & { is_shared: boolean }) | undefined> {
    return this.db.selectFrom('ports').select(['id', 'modem_id', 'is_shared', 'status', 'expires_at', 'last_rotated_at'])
      .where('rotation_token_hash', '=', tokenHash).where('status', '<>', 'released').executeTakeFirst();
  }

  livePort(portId: string): Promise<RotatablePort | undefined> {
    return this.db.selectFrom('ports').select(['id', 'modem_id', 'status', 'expires_at', 'last_rotated_at'])
      .where('id', '=', portId).where('status', '<>', 'released').executeTakeFirst();
  }

  /** When the modem's schedule rotates it next (null: it has none). */
  async modemRotationDue(modemId: string): Promise<Date | null> {
    return (await this.db.selectFrom('modems').select('rotation_due_at').where('id', '=', modemId).executeTakeFirst())?.rotation_due_at ?? null;
  }

  /** Whether the modem rotated within the last `seconds`. */
  async modemRotatedWithin(modemId: string, seconds: number): Promise<boolean> {
    const recent = await this.db.selectFrom('modems').select('id').where('id', '=', modemId)
      .where('last_rotated_at', '>', sql<Date>`now() - make_interval(secs => ${seconds})`).executeTakeFirst();
    return recent !== undefined;
  }

  /** Claims the port's minute atomically: two clicks at once cannot both pass. */
  async claimPortMinute(portId: string, cooldownSeconds: number): Promise<boolean> {
    const claimed = await this.db.updateTable('ports').set({ last_rotated_at: sql`now()` })
      .where('id', '=', portId)
      .where((eb) => eb.or([
        eb('last_rotated_at', 'is', null),
        eb('last_rotated_at', '<=', sql<Date>`now() - make_interval(secs => ${cooldownSeconds})`),
      ]))
      .returning('id').executeTakeFirst();
    return claimed !== undefined;
  }

  /** Gives the port's minute back (nothing happened for it). */
  async restorePortRotatedAt(portId: string, lastRotatedAt: Date | null): Promise<void> {
    await this.db.updateTable('ports').set({ last_rotated_at: lastRotatedAt }).where('id', '=', portId).execute();
  }

  /** Seconds until the port's minute has passed. */
  async secondsUntilRotation(portId: string, cooldownSeconds: number): Promise<number | undefined> {
    const row = await this.db.selectFrom('ports')
      .select(sql<number>`ceil(extract(epoch from (last_rotated_at + make_interval(secs => ${cooldownSeconds}) - now())))::int`.as('wait'))
      .where('id', '=', portId).executeTakeFirst();
    return row?.wait;
  }

  /**
   * One rotation at a time per modem: takes it unless it is offline or another rotation is under way (one started
   * more than `staleSeconds` ago was interrupted). Returns the modem's status and last rotation from before the claim
   * (a subquery in RETURNING reads the row as it was).
   */
  claimModem(modemId: string, staleSeconds: number): Promise<ClaimedModem | undefined> {
    return this.db.updateTable('modems')
      .set({ apply_status: 'rotating', last_rotated_at: sql`now()` })
      .where('id', '=', modemId).where('online', '=', true)
      .where((eb) => eb.or([
        eb('apply_status', 'in', ['idle', 'failed']),
        eb('last_rotated_at', '<', sql<Date>`now() - make_interval(secs => ${staleSeconds})`),
      ]))
      .returning(['id', 'imei', 'ext_ip',
        sql<ApplyStatus>`(select m0.apply_status from modems m0 where m0.id = modems.id)`.as('prev_status'),
        sql<Date | null>`(select m0.last_rotated_at from modems m0 where m0.id = modems.id)`.as('prev_rotated_at'),
      ]).executeTakeFirst();
  }

  async modemOnline(modemId: string): Promise<boolean> {
    return (await this.db.selectFrom('modems').select('online').where('id', '=', modemId).executeTakeFirst())?.online ?? false;
  }

  async setApplyStatus(modemId: string, status: ApplyStatus): Promise<void> {
    await this.db.updateTable('modems').set({ apply_status: status }).where('id', '=', modemId).execute();
  }

  /** Leaves a modem nobody could reach as it was before the claim, and offline. */
  async restoreUnreachedModem(modemId: string, status: ApplyStatus, lastRotatedAt: Date | null): Promise<void> {
    await this.db.updateTable('modems')
      .set({ apply_status: status, last_rotated_at: lastRotatedAt, online: false })
      .where('id', '=', modemId).execute();
  }

  async finishRotation(modemId: string, status: ApplyStatus, extIp: string): Promise<void> {
    await this.db.updateTable('modems').set({ apply_status: status, ext_ip: extIp, last_rotated_at: sql`now()` })
      .where('id', '=', modemId).execute();
  }

  /** The customers with a live port on the modem. */
  async modemCustomers(modemId: string): Promise<string[]> {
    const users = await this.db.selectFrom('ports').select('user_id').distinct()
      .where('modem_id', '=', modemId).where('status', '<>', 'released').execute();
    return users.map((u) => u.user_id);
  }

  /** The active ports on the modem, with their owners. */
  activePortsOn(modemId: string) {
    return this.db.selectFrom('ports').select(['id', 'user_id', 'name'])
      .where('modem_id', '=', modemId).where('status', '=', 'active').execute();
  }

  // The interval chains (interval-rotation.ts).

  /** A dedicated port's interval settings, locked (its interval just changed). */
  lockPortInterval(tx: Tx, portId: string) {
    return tx.selectFrom('ports').select(['rotation_interval', 'last_rotated_at', 'is_shared'])
      .where('id', '=', portId).forUpdate().executeTakeFirst();
  }

  /** A port's chain, locked: its link runs only when its due time is still the recorded one. */
  lockPortChain(tx: Tx, portId: string) {
    return tx.selectFrom('ports')
      .select(['id', 'status', 'expires_at', 'rotation_interval', 'rotation_due_at', 'is_shared'])
      .where('id', '=', portId).forUpdate().executeTakeFirst();
  }

  async setPortDue(tx: Tx, portId: string, dueAt: Date | null): Promise<void> {
    await tx.updateTable('ports').set({ rotation_due_at: dueAt }).where('id', '=', portId).execute();
  }

  lockModemChain(tx: Tx, modemId: string) {
    return tx.selectFrom('modems').select(['id', 'rotation_interval', 'rotation_due_at', 'is_shared'])
      .where('id', '=', modemId).forUpdate().executeTakeFirst();
  }

  /** Whether the modem has a customer whose port is active at `now`. */
  async modemHasCustomers(tx: Tx, modemId: string, now: Date): Promise<boolean> {
    const customers = await tx.selectFrom('ports').select('id').where('modem_id', '=', modemId)
      .where('status', '=', 'active').where('expires_at', '>', now).limit(1).executeTakeFirst();
    return customers !== undefined;
  }

  async setModemDue(tx: Tx, modemId: string, dueAt: Date | null): Promise<void> {
    await tx.updateTable('modems').set({ rotation_due_at: dueAt }).where('id', '=', modemId).execute();
  }

  /** Active dedicated ports with an interval and no chain. */
  portsWithoutChain(now: Date, limit: number) {
    return this.db.selectFrom('ports')
      .select(['id', 'rotation_interval', 'last_rotated_at', 'created_at'])
      .where('rotation_due_at', 'is', null).where('rotation_interval', '>', 0).where('status', '=', 'active')
      .where('is_shared', '=', false).where('expires_at', '>', now)
      .limit(limit).execute();
  }

  /** Shared modems with an interval, a customer and no chain. */
  modemsWithoutChain(now: Date, limit: number) {
    return this.db.selectFrom('modems').select(['id', 'rotation_interval', 'last_rotated_at'])
      .where('rotation_due_at', 'is', null).where('rotation_interval', '>', 0).where('is_shared', '=', true)
      .where((eb) => eb.exists(eb.selectFrom('ports').select('ports.id').whereRef('ports.modem_id', '=', 'modems.id')
        .where('ports.status', '=', 'active').where('ports.expires_at', '>', now)))
      .limit(limit).execute();
  }

  /** Records the first due time unless another instance just did: true when this one did. */
  async startPortChain(tx: Tx, portId: string, dueAt: Date): Promise<boolean> {
    const set = await tx.updateTable('ports').set({ rotation_due_at: dueAt })
      .where('id', '=', portId).where('rotation_due_at', 'is', null).returning('id').executeTakeFirst();
    return set !== undefined;
  }

  async startModemChain(tx: Tx, modemId: string, dueAt: Date): Promise<boolean> {
    const set = await tx.updateTable('modems').set({ rotation_due_at: dueAt })
      .where('id', '=', modemId).where('rotation_due_at', 'is', null).returning('id').executeTakeFirst();
    return set !== undefined;
  }
}
