import type { Metadata, SavedCard, SubscriptionStatus } from './card-provider.js';

/** A card the sandbox saved for a customer (what Stripe keeps as a PaymentMethod attached to a Customer). */
export interface SandboxPaymentMethod extends SavedCard {
  customerId: string;
  /** The test card that saves fine but declines every charge (4000 0000 0000 0341). */
  declinesCharges: boolean;
}

/** What our database knows of a subscription, enough to rebuild it in a sandbox that forgot it (a restart). */
export interface SandboxSubscriptionSnapshot {
  id: string;
  customerId: string;
  priceCents: number;
  intervalDays: number;
  metadata: Metadata;
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date | null;
  nextRetryAt: Date | null;
  card: { paymentMethodId: string; brand: string; last4: string } | null;
}

/**
 * Where the sandbox keeps what Stripe would keep for us across a restart: the customers' saved cards, and the
 * subscriptions (read back from our own card_subscriptions rows, which hold the provider's last reported state).
 * The app gives it the database (modules/payments/sandbox-cards.repository.ts); unit tests use `memorySandboxCardStore`.
 */
export interface SandboxCardStore {
  savePaymentMethod(pm: SandboxPaymentMethod): Promise<void>;
  paymentMethod(id: string): Promise<SandboxPaymentMethod | undefined>;
  /** The customer's saved cards, newest first. */
  paymentMethodsOf(customerId: string): Promise<SandboxPaymentMethod[]>;
  deletePaymentMethod(id: string): Promise<void>;
  /** A subscription the sandbox's memory lost, as our database last knew it; undefined when it never existed. */
  subscription(id: string): Promise<SandboxSubscriptionSnapshot | undefined>;
}

/** A store in this process's memory: forgets everything on restart (unit tests of the sandbox itself). */
export function memorySandboxCardStore(): SandboxCardStore {
  const methods = new Map<string, SandboxPaymentMethod>();
  return {
    async savePaymentMethod(pm) { methods.set(pm.id, { ...pm }); },
    async paymentMethod(id) { return methods.get(id); },
    async paymentMethodsOf(customerId) { return [...methods.values()].filter((pm) => pm.customerId === customerId).reverse(); },
    async deletePaymentMethod(id) { methods.delete(id); },
    async subscription() { return undefined; },
  };
}
