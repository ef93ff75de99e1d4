import type { Selectable } from 'kysely';
import type { Database } from '../../db/database.js';
import type { SandboxPaymentMethodsTable } from '../../db/tables/payments.js';
import type { SandboxCardStore, SandboxPaymentMethod, SandboxSubscriptionSnapshot } from '../../integrations/stripe/sandbox-card-store.js';

/**
 * The sandbox card provider's memory that must outlive a restart, in the database: the saved cards (their own
 * table) and the subscriptions, read back from card_subscriptions, which hold what the provider last reported.
 */
export class SandboxCardsRepository implements SandboxCardStore {
  constructor(private readonly db: Database) {}

  async savePaymentMethod(pm: SandboxPaymentMethod): Promise<void> {
    await this.db.insertInto('sandbox_payment_methods').values({
      id: pm.id, customer_id: pm.customerId, brand: pm.brand, last4: pm.last4, exp_month: pm.expMonth, exp_year: pm.expYear,
      declines_charges: pm.declinesCharges,
    }).onConflict((oc) => oc.column('id').doNothing()).execute();
  }

  async paymentMethod(id: string): Promise<SandboxPaymentMethod | undefined> {
    const row = await this.db.selectFrom('sandbox_payment_methods').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toPaymentMethod(row);
  }

  async paymentMethodsOf(customerId: string): Promise<SandboxPaymentMethod[]> {
    const rows = await this.db.selectFrom('sandbox_payment_methods').selectAll().where('customer_id', '=', customerId)
      .orderBy('created_at', 'desc').orderBy('id').execute();
    return rows.map(toPaymentMethod);
  }

  async deletePaymentMethod(id: string): Promise<void> {
    await this.db.deleteFrom('sandbox_payment_methods').where('id', '=', id).execute();
  }

  async subscription(id: string): Promise<SandboxSubscriptionSnapshot | undefined> {
    const row = await this.db.selectFrom('card_subscriptions as s')
      .innerJoin('payment_accounts as a', 'a.user_id', 's.user_id')
      .select(['s.id', 's.user_id', 's.order_id', 'a.card_customer_id', 's.status', 's.amount', 's.interval_days', 's.cancel_at_period_end',
        's.current_period_end', 's.next_charge_at', 's.payment_method_id', 's.card_brand', 's.card_last4'])
      .where('s.id', '=', id).executeTakeFirst();
    if (!row?.card_customer_id || row.amount === null) return undefined;
    return {
      id: row.id, customerId: row.card_customer_id, priceCents: Number(row.amount / 10_000n), intervalDays: row.interval_days,
      metadata: { orderId: row.order_id, userId: row.user_id }, status: row.status, cancelAtPeriodEnd: row.cancel_at_period_end,
      currentPeriodEnd: row.current_period_end, nextRetryAt: row.status === 'past_due' ? row.next_charge_at : null,
      card: row.payment_method_id && row.card_brand && row.card_last4
        ? { paymentMethodId: row.payment_method_id, brand: row.card_brand, last4: row.card_last4 } : null,
    };
  }
}

function toPaymentMethod(row: Selectable<SandboxPaymentMethodsTable>): SandboxPaymentMethod {
  return {
    id: row.id, customerId: row.customer_id, brand: row.brand, last4: row.last4, expMonth: row.exp_month, expYear: row.exp_year,
    declinesCharges: row.declines_charges,
  };
}
