import { sql, type Insertable, type RawBuilder, type Selectable } from 'kysely';
import { CompiledOnce, keptInsert } from '../../db/compiled-once.js';
import type { Database, Tx } from '../../db/database.js';
import type { PaymentsTable } from '../../db/tables/ledger.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { DB } from '../../db/schema.js';
import type { NamedPort } from '../notifications/index.js';

export type PaymentRow = Selectable<PaymentsTable>;
export type NewPayment = Insertable<PaymentsTable>;
export type NewPort = Insertable<DB['ports']>;
/** Who a purchase's notification speaks to, and how many ports they have had (insertPaymentWithInvoice). */
export interface Buyer { language: string; marketing_consent: boolean; email: string; name: string; is_active: boolean; port_count: number }
/** A port a payment paid for, with its name as stored (a default one is shown in the reader's language). */
export type PaidPort = { _id: string } & NamedPort;
/** The term jobs' INSERT, unexecuted (`JobQueue.scheduleQuery`), for the statement that writes the ports. */
export type TermJobsInsert = ReturnType<JobQueue['scheduleQuery']>;

export interface StockFilter {
  countryId: string; carrierId: string | null; regionId: string | null; isShared: boolean; rotationInterval: number;
  /**
   * A replacement (issue 15, item 6): not the modem the port leaves, and only modems whose health checks pass; modems
   * on `hostId` (the port's host) first, then on hosts behind `gatewayId`, so the port keeps its whole address (decisions 036, 045).
   */
  replacing?: { modemId: string; hostId?: string; gatewayId?: string };
}

/**
 * The purchases module's queries: tariffs, stock, payments, ports and idempotency keys. Writes take the caller's
 * transaction; every statement here is one round trip (decision 014 counts them), so keep them that way.
 */
export class PurchasesRepository {
  // A purchase's statements whose text depends on a shape only, compiled by Kysely once and sent again with each
  // purchase's values: building them cost the server more CPU than the database spent on them (issue 31, item 3).
  private readonly tariffQuery = new CompiledOnce<'tariff'>(1);
  /** By the filter's shape (stockShape). */
  private readonly takeQueries = new CompiledOnce<string>();

  constructor(private readonly db: Database) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * Takes the customer's one trial (issue 27, item 8): true when this transaction got it. The customer is the key,
   * so a parallel trial purchase by the same customer waits here for this one's commit and then gets false.
   */
  async claimTrial(tx: Tx, userId: string, tariffId: string, paymentId: string): Promise<boolean> {
    const row = await tx.insertInto('trial_uses').values({ user_id: userId, tariff_id: tariffId, payment_id: paymentId })
      .onConflict((oc) => oc.column('user_id').doNothing()).returning('user_id').executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The tariff with its country's names and the name of the carrier the purchase is of (the chosen one, else the
   * tariff's own; null when neither), in one statement.
   */
  async tariffWithCountry(tx: Tx, tariffId: string, carrierId: string | null) {
    const [row] = await this.tariffQuery.rows(tx, 'tariff', [carrierId, tariffId], () => tx.selectFrom('tariffs as t')
      .innerJoin('countries as c', 'c.id', 't.country_id')
      .leftJoin('carriers as ca', (join) => join.on('ca.id', '=', sql<string>`coalesce(${carrierId}::uuid, t.carrier_id)`))
      .selectAll('t').select(['c.names as country_names', 'ca.name as carrier_name']).where('t.id', '=', tariffId));
    return row;
  }

  tariffs(tx: Tx, ids: string[]) {
    return tx.selectFrom('tariffs').selectAll().where('id', 'in', ids).execute();
  }

  private stock(tx: Tx, f: StockFilter) {
    let q = tx.selectFrom('modems').select(['id', 'capacity', 'used_slots'])
      .where('country_id', '=', f.countryId).where('is_shared', '=', f.isShared)
      .where('online', '=', true).where('retired', '=', false).where('maintenance_since', 'is', null)
      .whereRef('used_slots', '<', 'capacity');
    if (f.replacing) q = q.where('id', '<>', f.replacing.modemId).where('health', '=', 'online');
    if (f.carrierId) q = q.where('carrier_id', '=', f.carrierId);
    if (f.regionId) q = q.where('region_id', '=', f.regionId);
    if (f.isShared) q = q.where('rotation_interval', '=', f.rotationInterval);
    return q;
  }

  /** stock's parameters, in the order its builder adds them; `shape`: what decides its text. */
  private stockShape(f: StockFilter): { shape: string; parameters: unknown[] } {
    const parameters: unknown[] = [f.countryId, f.isShared, true, false];
    if (f.replacing) parameters.push(f.replacing.modemId, 'online');
    if (f.carrierId) parameters.push(f.carrierId);
    if (f.regionId) parameters.push(f.regionId);
    if (f.isShared) parameters.push(f.rotationInterval);
    const shape = [f.isShared, !!f.replacing, !!f.carrierId, !!f.regionId].map(Number).join('');
    return { shape, parameters };
  }

  /**
   * Picks up to `count` free dedicated modems and takes them, in one statement: SKIP LOCKED, so a modem another
   * buyer holds is not free for us. Returns the ids taken (fewer than `count` on a shortfall; the caller's rollback
   * gives them back).
   */
  async takeDedicated(tx: Tx, f: StockFilter, count: number): Promise<string[]> {
    const { key, parameters } = this.takeShape(f, count);
    const taken = await this.takeQueries.rows(tx, key, parameters, () => this.takeDedicatedQuery(tx, f, count));
    return taken.map((r) => r.id);
  }

  /** takeDedicatedQuery's kept-text key and parameters, in the order its builder adds them. */
  private takeShape(f: StockFilter, count: number): { key: string; parameters: unknown[] } {
    const { shape, parameters } = this.stockShape(f);
    const preferHost = f.replacing?.hostId;
    const preferGateway = f.replacing?.gatewayId;
    if (preferHost) parameters.push(preferHost);
    if (preferGateway) parameters.push(preferGateway);
    parameters.push(count);
    return { key: `${shape}${Number(!!preferHost)}${Number(!!preferGateway)}`, parameters };
  }

  /** takeDedicated's statement: the pick, SKIP LOCKED, and the taking of what it picked. */
  private takeDedicatedQuery(tx: Tx, f: StockFilter, count: number) {
    let q = this.stock(tx, f);
    const preferHost = f.replacing?.hostId;
    if (preferHost) q = q.orderBy(sql<number>`case when host_id = ${preferHost} then 0 else 1 end`);
    // Then a host behind the same gateway: the port keeps its whole address there too (decision 045).
    const preferGateway = f.replacing?.gatewayId;
    if (preferGateway) {
      q = q.orderBy(sql<number>`case when host_id in (select id from hosts where gateway_id = ${preferGateway}) then 0 else 1 end`);
    }
    return tx.with('picked', () => q.orderBy('imei').limit(count).forUpdate().skipLocked())
      .updateTable('modems').set({ used_slots: sql`modems.used_slots + 1` })
      .from('picked').whereRef('modems.id', '=', 'picked.id')
      .returning('modems.id');
  }

  /** The shared modems with free slots, locked in id order (the used_slots check is re-evaluated after a lock wait). */
  lockShared(tx: Tx, f: StockFilter) {
    return this.stock(tx, f).orderBy('id').forUpdate().execute();
  }

  async addUsedSlots(tx: Tx, modemId: string, n: number): Promise<void> {
    await tx.updateTable('modems').set({ used_slots: sql`used_slots + ${n}` }).where('id', '=', modemId).execute();
  }

  /**
   * The payment, its invoice and its buyer in one statement (issue 31: two round trips fewer per purchase). `invoice`
   * gets the name to read the new payment from (the CTE, as the table does not show it to a sibling statement) and
   * returns the invoice's INSERT (invoices.service.ts `invoiceInsert`). The buyer is who the purchase's notification
   * speaks to (with their address, so its e-mail is written in the purchase's transaction) and how many ports they
   * have had (new ones are named "Proxy n+1"…): read after the debit, so a parallel purchase of the same customer,
   * which waited on the balance's row, counts this one's ports.
   * `take`: dedicated modems to take in the same statement (takeDedicated's pick, after the debit as the lock order
   * wants: a round trip fewer, issue 31); `taken` is their ids, fewer than asked on a shortfall (the caller throws,
   * and its rollback undoes the payment with them). Null without `take`.
   */
  async insertPaymentWithInvoice(tx: Tx, payment: NewPayment, invoice: (payments: RawBuilder<unknown>) => RawBuilder<unknown>,
    take?: { filter: StockFilter; count: number }): Promise<{ payment: PaymentRow; buyer: Buyer; taken: string[] | null }> {
    const taking = take && this.takeShape(take.filter, take.count);
    const takenCte = take && taking
      ? sql`, taken as (${this.takeQueries.fragment(taking.key, taking.parameters, () => this.takeDedicatedQuery(tx, take.filter, take.count))})`
      : sql``;
    const { rows } = await sql<PaymentRow & { buyer: Buyer; taken: string[] | null }>`with new_payment as (${keptInsert('payments', [payment], () => tx.insertInto('payments').values(payment).returningAll())}),
      new_invoice as (${invoice(sql`new_payment`)})
      ${takenCte}
      select p.*, (select jsonb_build_object('language', u.language, 'marketing_consent', u.marketing_consent, 'email', u.email,
          'name', u.name, 'is_active', u.is_active, 'port_count', (select count(*) from ports where ports.user_id = u.id))
        from users u where u.id = p.user_id) as buyer,
        ${take ? sql`(select coalesce(jsonb_agg(taken.id), '[]'::jsonb) from taken)` : sql`null::jsonb`} as taken
      from new_payment p`.execute(tx);
    const { buyer, taken, ...row } = rows[0]!;
    return { payment: row, buyer, taken };
  }

  async recordPayment(tx: Tx, payment: NewPayment): Promise<void> {
    await tx.insertInto('payments').values(payment).execute();
  }

  /**
   * The ports, their term jobs, their links to the payment and the webhook event that tells of them, as CTEs for the
   * purchase's notification's statement (notifications' `notifyAlongside`: one round trip for both, issue 31). The
   * links' foreign keys are checked at the statement's end, when the ports are in. `event`: webhooks'
   * `webhookEventInsert`, unexecuted. `new_ports` holds the new rows whole, for the ports module's listing of them in
   * the same statement (`PortsRepository.newPortsListing`).
   */
  portsCtes(tx: Tx, paymentId: string, ports: NewPort[], termJobs: TermJobsInsert, event: RawBuilder<unknown>): RawBuilder<unknown> {
    return sql`new_ports as (${keptInsert('ports', ports, () => tx.insertInto('ports').values(ports).returningAll())}),
      term_jobs as (${termJobs}),
      port_event as (${event}),
      port_links as (insert into payment_ports (payment_id, port_id) select ${paymentId}::uuid, new_ports.id from new_ports)`;
  }

  /** The customer's live ports among `ids` (no lock). */
  renewablePorts(tx: Tx, userId: string, ids: string[]) {
    return tx.selectFrom('ports').select(['id', 'tariff_id', 'modem_id'])
      .where('id', 'in', ids).where('user_id', '=', userId).where('status', '<>', 'released').execute();
  }

  modemCountries(tx: Tx, modemIds: string[]) {
    return tx.selectFrom('modems').select(['id', 'country_id', 'retired']).where('id', 'in', modemIds).execute();
  }

  /** The customer's live ports among `ids`, locked in id order. */
  lockPorts(tx: Tx, userId: string, ids: string[]) {
    return tx.selectFrom('ports').select(['id', 'name', 'default_number', 'tariff_id', 'modem_id', 'expires_at', 'status'])
      .where('id', 'in', ids).where('user_id', '=', userId).where('status', '<>', 'released')
      .orderBy('id').forUpdate().execute();
  }

  async extendPort(tx: Tx, portId: string, expiresAt: Date): Promise<void> {
    await tx.updateTable('ports').set({ expires_at: expiresAt, status: 'active' }).where('id', '=', portId).execute();
  }

  async linkPorts(tx: Tx, paymentId: string, portIds: string[]): Promise<void> {
    await tx.insertInto('payment_ports').values(portIds.map((portId) => ({ payment_id: paymentId, port_id: portId }))).execute();
  }

  /** Claims the key; false when it exists (a concurrent duplicate waits on the unique index until the first ends). */
  async claimIdempotencyKey(tx: Tx, userId: string, key: string, requestHash: string): Promise<boolean> {
    const inserted = await tx.insertInto('idempotency_keys').values({ user_id: userId, key, request_hash: requestHash, response: null })
      .onConflict((oc) => oc.columns(['user_id', 'key']).doNothing()).returning('key').executeTakeFirst();
    return inserted !== undefined;
  }

  idempotencyKey(tx: Tx, userId: string, key: string) {
    return tx.selectFrom('idempotency_keys').select(['request_hash', 'response'])
      .where('user_id', '=', userId).where('key', '=', key).executeTakeFirst();
  }

  async storeIdempotentResponse(tx: Tx, userId: string, key: string, response: string): Promise<void> {
    await tx.updateTable('idempotency_keys').set({ response }).where('user_id', '=', userId).where('key', '=', key).execute();
  }

  /** The customer's payments, newest first (or one of them), with the ports each paid for. */
  async payments(userId: string, paymentId?: string, q: Database | Tx = this.db): Promise<Array<{ payment: PaymentRow; ports: PaidPort[] }>> {
    let query = q.selectFrom('payments').selectAll().where('user_id', '=', userId);
    if (paymentId) query = query.where('id', '=', paymentId);
    const payments = await query.orderBy('created_at', 'desc').orderBy('id').limit(500).execute();
    if (!payments.length) return [];
    const links = await q.selectFrom('payment_ports').innerJoin('ports', 'ports.id', 'payment_ports.port_id')
      .select(['payment_ports.payment_id', 'ports.id', 'ports.name', 'ports.default_number'])
      .where('payment_ports.payment_id', 'in', payments.map((p) => p.id)).orderBy('ports.created_at').execute();
    return payments.map((payment) => ({
      payment, ports: links.filter((l) => l.payment_id === payment.id).map((l) => ({ _id: l.id, name: l.name, default_number: l.default_number })),
    }));
  }

  // A port's term (port-lifecycle-jobs.ts): each job first checks the port is still in the term it was scheduled for.

  /** The port with its owner's language, locked; the job's term is over when its expiry changed (a renewal). */
  lockTerm(tx: Tx, portId: string) {
    return tx.selectFrom('ports').innerJoin('users', 'users.id', 'ports.user_id')
      .select(['ports.id', 'ports.user_id', 'ports.modem_id', 'ports.name', 'ports.default_number', 'ports.status', 'ports.expires_at', 'ports.auto_renew', 'ports.tariff_id', 'users.language'])
      .where('ports.id', '=', portId).forUpdate(['ports']).executeTakeFirst();
  }

  /** A savepoint in the caller's transaction: an auto-renewal that fails undoes only itself. */
  async savepoint(tx: Tx, name: string): Promise<void> {
    await sql`savepoint ${sql.id(name)}`.execute(tx);
  }

  async releaseSavepoint(tx: Tx, name: string): Promise<void> {
    await sql`release savepoint ${sql.id(name)}`.execute(tx);
  }

  async rollbackToSavepoint(tx: Tx, name: string): Promise<void> {
    await sql`rollback to savepoint ${sql.id(name)}`.execute(tx);
  }

  async tariffPrice(tx: Tx, tariffId: string): Promise<bigint> {
    return (await tx.selectFrom('tariffs').select('price').where('id', '=', tariffId).executeTakeFirstOrThrow()).price;
  }

  async expirePort(tx: Tx, portId: string): Promise<void> {
    await tx.updateTable('ports').set({ status: 'expired' }).where('id', '=', portId).execute();
  }

  /** The port is released and its modem's slot is free for sale again. */
  async releasePort(tx: Tx, portId: string, modemId: string): Promise<void> {
    await tx.updateTable('ports').set({ status: 'released', released_at: sql`now()` }).where('id', '=', portId).execute();
    await tx.updateTable('modems').set({ used_slots: sql`used_slots - 1` }).where('id', '=', modemId).execute();
  }
}
