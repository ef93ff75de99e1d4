import Stripe from 'stripe';
import type { CardEvent } from './card-event.js';
import {
  assertCents,
  assertFirstDiscount,
  type CardProvider,
  type ClientSecretResult,
  type PaymentIntentInput,
  type SavedCard,
  type SavedCardChargeInput,
  type SubscriptionChange,
  type SubscriptionInput,
  type SubscriptionState,
} from './card-provider.js';
import { CardProviderError, WebhookSignatureError } from './errors.js';
import { normalizeStripeEvent } from './normalize-stripe-event.js';
import { subscriptionStateOf } from './stripe-subscription-state.js';

export interface StripeCardProviderOptions {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** Only for tests: e.g. http://127.0.0.1:4321 sends every API call to a fake server instead of api.stripe.com. */
  apiBase?: string;
  /** Seconds a webhook signature stays acceptable (Stripe's default is 300). */
  webhookToleranceSeconds?: number;
  timeoutMs?: number;
}

/** The card and the latest invoice (its next retry while past_due) come with every subscription we read. */
const SUBSCRIPTION_EXPAND = ['default_payment_method', 'latest_invoice'];

/** Subscriptions need a Product to hang their inline price on; one fixed product holds them all. */
export const SUBSCRIPTION_PRODUCT_ID = 'cellport-proxy-port';

/** The real card provider: Stripe's official SDK, which pins the API version it was built for. */
export class StripeCardProvider implements CardProvider {
  readonly kind = 'stripe' as const;
  readonly publicConfig;
  private readonly stripe: Stripe;
  private productReady: Promise<string> | null = null;

  constructor(private readonly options: StripeCardProviderOptions) {
    this.publicConfig = { provider: 'stripe' as const, publishableKey: options.publishableKey };
    this.stripe = new Stripe(options.secretKey, {
      ...apiBaseOptions(options.apiBase),
      maxNetworkRetries: 2,
      timeout: options.timeoutMs ?? 20_000,
      telemetry: false,
      appInfo: { name: 'Cellport' },
    });
  }

  async ensureCustomer({ email, name, userId }: { email: string; name: string; userId: string }): Promise<string> {
    return call(async () => {
      const found = await this.stripe.customers.list({ email, limit: 1 });
      const existing = found.data[0];
      if (existing) return existing.id;
      const created = await this.stripe.customers.create(
        { email, name, metadata: { user_id: userId } },
        { idempotencyKey: `cellport-customer-${userId}` },
      );
      return created.id;
    });
  }

  async createPaymentIntent(input: PaymentIntentInput): Promise<ClientSecretResult> {
    assertCents(input.amountCents);
    return call(async () => {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: input.currency,
          ...(input.customerId ? { customer: input.customerId } : {}),
          metadata: input.metadata,
          automatic_payment_methods: { enabled: true },
        },
        idempotency(input.idempotencyKey),
      );
      return { id: intent.id, clientSecret: requireSecret(intent.client_secret, intent.id) };
    });
  }

  async createSubscription(input: SubscriptionInput): Promise<ClientSecretResult> {
    assertCents(input.priceCents, 'priceCents');
    const discount = input.firstDiscountCents ?? 0;
    assertFirstDiscount(discount, input.priceCents);
    return call(async () => {
      const product = await this.ensureProduct();
      // A first order's discount is a coupon of its own that Stripe applies to the first invoice only
      // (duration 'once'); the subscription's price stays what every renewal costs.
      const coupon = discount > 0 ? await this.stripe.coupons.create(
        { amount_off: discount, currency: 'usd', duration: 'once', max_redemptions: 1, name: 'First order discount' },
        idempotency(input.idempotencyKey && `${input.idempotencyKey}:first-discount`),
      ) : null;
      // default_incomplete: the subscription waits for the first invoice to be paid in the browser. Since API
      // 2025-03-31 the invoice's client secret is `confirmation_secret` (it replaced latest_invoice.payment_intent).
      const subscription = await this.stripe.subscriptions.create(
        {
          customer: input.customerId,
          // Days, not Stripe's calendar month: a port's period is 30 days, and the charge must fall when it runs out.
          items: [{ price_data: { currency: 'usd', product, unit_amount: input.priceCents, recurring: { interval: 'day', interval_count: input.intervalDays } } }],
          ...(coupon ? { discounts: [{ coupon: coupon.id }] } : {}),
          payment_behavior: 'default_incomplete',
          payment_settings: { save_default_payment_method: 'on_subscription' },
          metadata: input.metadata,
          expand: ['latest_invoice.confirmation_secret'],
        },
        idempotency(input.idempotencyKey),
      );
      const invoice = subscription.latest_invoice;
      const secret = invoice && typeof invoice === 'object' ? invoice.confirmation_secret?.client_secret : undefined;
      return { id: subscription.id, clientSecret: requireSecret(secret, subscription.id) };
    });
  }

  async retrieveSubscription(subscriptionId: string): Promise<SubscriptionState> {
    return call(async () => subscriptionStateOf(await this.stripe.subscriptions.retrieve(subscriptionId, { expand: SUBSCRIPTION_EXPAND })));
  }

  async updateSubscription(subscriptionId: string, change: SubscriptionChange): Promise<SubscriptionState> {
    return call(async () => subscriptionStateOf(await this.stripe.subscriptions.update(subscriptionId, {
      ...(change.cancelAtPeriodEnd !== undefined ? { cancel_at_period_end: change.cancelAtPeriodEnd } : {}),
      ...(change.paymentMethodId !== undefined ? { default_payment_method: change.paymentMethodId } : {}),
      expand: SUBSCRIPTION_EXPAND,
    })));
  }

  async cancelSubscriptionNow(subscriptionId: string): Promise<SubscriptionState> {
    return call(async () => subscriptionStateOf(await this.stripe.subscriptions.cancel(subscriptionId, { expand: SUBSCRIPTION_EXPAND })));
  }

  async createSetupIntent(customerId: string): Promise<ClientSecretResult> {
    return call(async () => {
      const intent = await this.stripe.setupIntents.create({
        customer: customerId,
        usage: 'off_session',
        automatic_payment_methods: { enabled: true },
      });
      return { id: intent.id, clientSecret: requireSecret(intent.client_secret, intent.id) };
    });
  }

  async listSavedCards(customerId: string): Promise<SavedCard[]> {
    return call(async () => {
      const list = await this.stripe.customers.listPaymentMethods(customerId, { type: 'card', limit: 20 });
      return list.data.flatMap((pm) =>
        pm.card ? [{ id: pm.id, brand: pm.card.brand, last4: pm.card.last4, expMonth: pm.card.exp_month, expYear: pm.card.exp_year }] : [],
      );
    });
  }

  async chargeSavedCard(input: SavedCardChargeInput): Promise<{ id: string; status: string }> {
    assertCents(input.amountCents);
    return call(async () => {
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: 'usd',
          customer: input.customerId,
          payment_method: input.paymentMethodId,
          off_session: true,
          confirm: true,
          metadata: input.metadata,
        },
        idempotency(input.idempotencyKey),
      );
      return { id: intent.id, status: intent.status };
    });
  }

  async detachPaymentMethod(customerId: string, paymentMethodId: string): Promise<void> {
    await call(async () => {
      // Ownership is checked here, not left to the caller: a customer may only remove a card attached to them.
      const pm = await this.stripe.paymentMethods.retrieve(paymentMethodId);
      const owner = typeof pm.customer === 'string' ? pm.customer : pm.customer?.id;
      if (owner !== customerId) throw new CardProviderError('not_found', 'No such saved card');
      await this.stripe.paymentMethods.detach(paymentMethodId);
    });
  }

  async refund(paymentIntentId: string, amountCents?: number): Promise<{ id: string; status: string }> {
    if (amountCents !== undefined) assertCents(amountCents);
    return call(async () => {
      const refund = await this.stripe.refunds.create({
        payment_intent: paymentIntentId,
        ...(amountCents !== undefined ? { amount: amountCents } : {}),
      });
      return { id: refund.id, status: refund.status ?? 'pending' };
    });
  }

  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined): CardEvent {
    if (!signatureHeader) throw new WebhookSignatureError('Missing Stripe-Signature header');
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(
        rawBody,
        signatureHeader,
        this.options.webhookSecret,
        this.options.webhookToleranceSeconds ?? 300,
      );
    } catch (err) {
      if (err instanceof Stripe.errors.StripeSignatureVerificationError) throw new WebhookSignatureError(err.message);
      // A body that is signed correctly but is not JSON cannot have come from Stripe either.
      throw new WebhookSignatureError(`Unreadable webhook payload: ${(err as Error).message}`);
    }
    return normalizeStripeEvent(event as unknown as Parameters<typeof normalizeStripeEvent>[0]);
  }

  /** Retrieves the fixed product, creating it on first use (a fixed id makes concurrent first uses converge). */
  private ensureProduct(): Promise<string> {
    this.productReady ??= (async () => {
      try {
        return (await this.stripe.products.retrieve(SUBSCRIPTION_PRODUCT_ID)).id;
      } catch (err) {
        if (!(err instanceof Stripe.errors.StripeError) || err.code !== 'resource_missing') throw err;
      }
      try {
        return (await this.stripe.products.create({ id: SUBSCRIPTION_PRODUCT_ID, name: 'Proxy port subscription' })).id;
      } catch (err) {
        if (err instanceof Stripe.errors.StripeError && err.code === 'resource_already_exists') return SUBSCRIPTION_PRODUCT_ID;
        throw err;
      }
    })().catch((err: unknown) => {
      this.productReady = null; // try again next time rather than caching a failure
      throw err;
    });
    return this.productReady;
  }
}

function apiBaseOptions(apiBase: string | undefined): { host?: string; port?: number; protocol?: 'http' | 'https' } {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: Number(url.port || (protocol === 'http' ? 80 : 443)), protocol };
}

function idempotency(key: string | undefined): { idempotencyKey?: string } {
  return key ? { idempotencyKey: key } : {};
}

function requireSecret(secret: string | null | undefined, id: string): string {
  if (!secret) throw new CardProviderError('missing_client_secret', `Stripe returned no client secret for ${id}`);
  return secret;
}

/** Runs one SDK call and turns Stripe's errors into CardProviderError, keeping the code and the card's decline code. */
async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof CardProviderError) throw err;
    if (err instanceof Stripe.errors.StripeError) {
      const intent = (err.raw as { payment_intent?: { id?: string } } | undefined)?.payment_intent;
      throw new CardProviderError(err.code ?? err.type, err.message, {
        ...(err.decline_code ? { declineCode: err.decline_code } : {}),
        ...(intent?.id ? { paymentIntentId: intent.id } : {}),
        ...(err.statusCode ? { httpStatus: err.statusCode } : {}),
      });
    }
    throw err;
  }
}
