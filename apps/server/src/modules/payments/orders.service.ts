import type { Language } from '@cellport/shared';
import type { CryptoPayment, PendingPayment } from '@cellport/shared/schemas/payments';
import type { Tx } from '../../db/database.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { purchaseDescription, renewalDescription, topUpDescription } from '../invoices/index.js';
import { portNamesText, renderText, type ServerText } from '../notifications/index.js';
import type { Quote } from './order-pricing.js';
import { cryptoToApi, ordersToApi, type OrderRow } from './order-view.js';
import type { OrderProvider, OrdersRepository } from './orders.repository.js';
import { announcePendingCrypto } from './pending-crypto-poll.js';

export interface CreateOrderInput {
  userId: string; provider: OrderProvider; quote: Quote; providerAmount: bigint; lng: Language;
  coin?: 'btc' | 'usdt' | null; address?: string | null; expiresAt?: Date | null; externalId?: string | null;
}

/** Writes and reads payment orders, always scoped by the customer, and shows them as the API does. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class OrdersService {
  constructor(private readonly repo: OrdersRepository) {}

  async create(input: CreateOrderInput, q?: Tx): Promise<OrderRow> {
    const { quote, ...rest } = input;
    const descriptionText = await this.descriptionText(quote, input.lng, q);
    return this.repo.create({
      ...rest, kind: quote.kind, details: quote.details, amount: quote.amount, description: quote.description, descriptionText,
    }, q);
  }

  /**
   * The order's description as a stored text, rendered in each reader's language (issue 14, item 3): a top-up (null
   * when the customer wrote their own words, a PayPal top-up's), the ports renewed, or the tariff bought.
   */
  private async descriptionText(quote: Quote, lng: Language, q?: Tx): Promise<ServerText | null> {
    const d = quote.details;
    if (quote.kind === 'topup') return quote.description === renderText(lng, topUpDescription.key) ? topUpDescription : null;
    const names = await this.repo.names([{ details: d } as OrderRow], q);
    if (quote.kind === 'renewal') {
      const ports = Object.keys(d.basket ?? {}).map((id) => names.ports.find((p) => p.id === id) ?? { name: '', default_number: null });
      return renewalDescription(portNamesText(ports));
    }
    const [tariff] = names.tariffs;
    const [country] = names.countries;
    return tariff && country ? purchaseDescription(country.names, tariff.names, d.modemCount ?? 1) : null;
  }

  async own(userId: string, id: string, q?: Tx): Promise<OrderRow> {
    const row = await this.repo.own(userId, id, q);
    if (!row) throw notFound();
    return row;
  }

  /** The orders as the API shows them (spec §3 Payment), described in the reader's `language` when given. */
  async view(rows: OrderRow[], q?: Tx, language?: Language): Promise<PendingPayment[]> {
    if (!rows.length) return [];
    return ordersToApi(rows, await this.repo.names(rows, q), language);
  }

  async cryptoView(row: OrderRow, q?: Tx): Promise<CryptoPayment> {
    return cryptoToApi(row, await this.repo.names([row], q));
  }

  /** The customer's order as the API shows it; another customer's is not found (404). */
  async ownView(userId: string, id: string): Promise<PendingPayment> {
    const [payment] = await this.view([await this.own(userId, id)]);
    return payment!;
  }

  /**
   * The customer's order in its current state, by our id or by the card provider's intent id; described in the
   * reader's `language`. Another customer's is not found (404), as is an unknown reference.
   */
  async byReference(userId: string, reference: string, language?: Language): Promise<PendingPayment> {
    const row = UUID.test(reference) ? await this.repo.own(userId, reference)
      : await this.repo.ownByExternalId(userId, reference).then((found) => (found ? this.repo.own(userId, found.id) : undefined));
    if (!row) throw notFound();
    const [payment] = await this.view([row], undefined, language);
    return payment!;
  }

  async pendingView(userId: string, language?: Language): Promise<PendingPayment[]> {
    return this.view(await this.repo.pending(userId), undefined, language);
  }

  /** The customer's active pending crypto payment, if any. */
  async activeCryptoView(userId: string): Promise<CryptoPayment | null> {
    const order = await this.repo.activeCrypto(userId);
    return order ? this.cryptoView(order) : null;
  }

  /** Cancels the customer's own pending order; another customer's is not found (404), a finished one is 409. */
  async cancel(userId: string, id: string): Promise<void> {
    const done = await this.repo.transaction(async (tx) => {
      const row = await this.repo.cancelPending(tx, userId, id);
      // A crypto payment was the active one: its poll version moves with the commit.
      if (row) await announcePendingCrypto(this.repo, tx, 'cancel', row);
      return row;
    });
    if (done) return;
    await this.own(userId, id);
    throw new AppError('PAYMENT_NOT_PENDING');
  }
}
