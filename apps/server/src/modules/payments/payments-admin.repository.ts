import { sql, type Insertable, type Selectable } from 'kysely';
import type { AdminPayment, AdminPaymentsQuery } from '@cellport/shared/schemas/admin/payments';
import type { Database, Tx } from '../../db/database.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import type { PaymentRefundsTable } from '../../db/tables/admin.js';
import { AppError } from '../../lib/app-error.js';
import type { Paging } from '../../lib/console-http.js';
import { cappedTotal, containsPattern, LIST_COUNT_CAP, type ListTotal } from '../../lib/console-lists.repository.js';

export type RefundRow = Selectable<PaymentRefundsTable>;

export type PaymentFilter = Omit<AdminPaymentsQuery, 'page' | 'pageSize'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface PaymentRow {
  id: string; user_id: string; email: string; provider: string; kind: string; status: string; amount: bigint; discount: bigint;
  currency: string; coupon: string | null; description: string; modem_count: number; tariff_id: string | null;
  refunded: string | null; created_at: Date;
}
export const toAdminPayment = (r: PaymentRow): AdminPayment => ({
  id: r.id, userId: r.user_id, email: r.email, provider: r.provider, kind: r.kind, status: r.status,
  amount: BigInt(r.amount).toString(), discount: BigInt(r.discount).toString(), currency: r.currency, coupon: r.coupon,
  description: r.description, modemCount: r.modem_count, tariffId: r.tariff_id, refunded: BigInt(r.refunded ?? 0).toString(),
  createdAt: r.created_at.toISOString(),
});

/**
 * Payments across every provider, with the customer's e-mail and what was refunded; the console's refunds
 * (`payment_refunds`) and what its completion and refunds read and lock.
 */
export class AdminPaymentsRepository {
  /** countCap: the list's total counts at most this many payments (lib/console-lists.repository.ts, cappedTotal). */
  constructor(private readonly db: Database, private readonly countCap = LIST_COUNT_CAP) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** A transaction that books a refund: the unique payment_refunds.payment_id turns a racing second one into REFUND_EXISTS. */
  refundTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.transaction(work).catch((error: unknown) => {
      if (isUniqueViolation(error)) throw new AppError('REFUND_EXISTS');
      throw error;
    });
  }

  refunds(paymentId: string): Promise<RefundRow[]> {
    return this.db.selectFrom('payment_refunds').selectAll().where('payment_id', '=', paymentId).execute();
  }

  /** The ports a payment bought or renewed. */
  ports(paymentId: string): Promise<Array<{ id: string; name: string }>> {
    return this.db.selectFrom('payment_ports').innerJoin('ports', 'ports.id', 'payment_ports.port_id').select(['ports.id', 'ports.name'])
      .where('payment_ports.payment_id', '=', paymentId).execute();
  }

  /** What the provider's order of a payment holds (none for a balance payment). */
  order(paymentId: string) {
    return this.db.selectFrom('payment_orders').select(['provider', 'coin', 'address', 'external_id', 'provider_amount', 'received', 'status',
      'fulfil_error', 'expires_at', 'completed_at', 'details']).where('id', '=', paymentId).executeTakeFirst();
  }

  /** The payment's row, locked: a second refund of it waits here and then finds the first. */
  lockPayment(tx: Tx, id: string) {
    return tx.selectFrom('payments').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  }

  async hasRefund(tx: Tx, paymentId: string): Promise<boolean> {
    const existing = await tx.selectFrom('payment_refunds').select('id').where('payment_id', '=', paymentId).executeTakeFirst();
    return existing !== undefined;
  }

  insertRefund(tx: Tx, refund: Insertable<PaymentRefundsTable>): Promise<RefundRow> {
    return tx.insertInto('payment_refunds').values(refund).returningAll().executeTakeFirstOrThrow();
  }

  setRefundProviderRef(tx: Tx, id: string, providerRef: string | null): Promise<RefundRow> {
    return tx.updateTable('payment_refunds').set({ provider_ref: providerRef }).where('id', '=', id)
      .returningAll().executeTakeFirstOrThrow();
  }

  /** The provider's id of a payment's order (a card payment's intent is `pi_…`). */
  async orderExternalId(tx: Tx, paymentId: string): Promise<string | null> {
    const order = await tx.selectFrom('payment_orders').select('external_id').where('id', '=', paymentId).executeTakeFirst();
    return order?.external_id ?? null;
  }

  /** A provider's order, locked, for the console to complete. */
  lockOrder(tx: Tx, orderId: string) {
    return tx.selectFrom('payment_orders').selectAll().where('id', '=', orderId).forUpdate().executeTakeFirst();
  }

  private base(q: Database | Tx) {
    return q.selectFrom('payments as p').innerJoin('users as u', 'u.id', 'p.user_id');
  }

  private select(q: Database | Tx) {
    return this.base(q)
      .select(['p.id', 'p.user_id', 'u.email', 'p.provider', 'p.kind', 'p.status', 'p.amount', 'p.discount', 'p.currency',
        'p.coupon', 'p.description', 'p.modem_count', 'p.tariff_id', 'p.created_at'])
      .select((eb) => eb.selectFrom('payment_refunds as r').select('r.amount').whereRef('r.payment_id', '=', 'p.id').as('refunded'));
  }

  async search(f: PaymentFilter, page: Paging): Promise<{ items: AdminPayment[] } & ListTotal> {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the same filters on the list and the count query
    const apply = <Q extends { where: any }>(q: Q): Q => {
      let out = q as any; // eslint-disable-line @typescript-eslint/no-explicit-any
      if (f.provider) out = out.where('p.provider', '=', f.provider);
      if (f.status) out = out.where('p.status', '=', f.status);
      if (f.kind) out = out.where('p.kind', '=', f.kind);
      if (f.userId) out = out.where('p.user_id', '=', f.userId);
      if (f.from) out = out.where('p.created_at', '>=', new Date(`${f.from}T00:00:00Z`));
      if (f.to) out = out.where('p.created_at', '<', new Date(Date.parse(`${f.to}T00:00:00Z`) + 86_400_000));
      if (f.q) {
        // The customer's e-mail, the description or the coupon contains the text, or the payment's id is the text.
        // Each branch is its own indexed lookup (trigram indexes, migration 2026_12_05_2300): an OR across the join
        // with users read every payment and every customer (bench/BENCHMARKS.md, "Scale"). A null coupon matches no
        // pattern, as coalesce(coupon, '') did not (the text is never empty).
        const like = containsPattern(f.q.toLowerCase());
        const term = f.q.trim();
        out = out.where(sql<boolean>`p.id in (
          select id from payments where user_id in (select id from users where lower(email) like ${like})
          union select id from payments where lower(description) like ${like}
          union select id from payments where lower(coupon) like ${like}
          ${UUID.test(term) ? sql`union select ${term}::uuid` : sql``})`);
      }
      return out as Q;
    };
    const [rows, total] = await Promise.all([
      // Newest first: an Index Scan of payments_created (created_at desc, id) that stops after the page.
      apply(this.select(this.db)).orderBy('p.created_at', 'desc').orderBy('p.id').limit(page.pageSize).offset(page.offset).execute(),
      // Every payment has its customer (a foreign key), and no filter reads users: the count needs no join. Capped:
      // the exact count of 300,000 payments read the whole table (bench/BENCHMARKS.md, "Scale"; decision 029).
      cappedTotal(this.db, apply(this.db.selectFrom('payments as p')), this.countCap),
    ]);
    return { items: rows.map((r) => toAdminPayment(r as PaymentRow)), ...total };
  }

  async byId(id: string, q: Database | Tx = this.db): Promise<AdminPayment | undefined> {
    const row = await this.select(q).where('p.id', '=', id).executeTakeFirst();
    return row ? toAdminPayment(row as PaymentRow) : undefined;
  }

  async forUser(userId: string): Promise<AdminPayment[]> {
    const rows = await this.select(this.db).where('p.user_id', '=', userId).orderBy('p.created_at', 'desc').limit(100).execute();
    return rows.map((r) => toAdminPayment(r as PaymentRow));
  }
}
