import { beforeEach, describe, expect, it } from 'vitest';
import type { CardPaymentEvent } from './card-event.js';
import { CardProviderError, WebhookSignatureError } from './errors.js';
import { SandboxCardProvider } from './sandbox-card-provider.js';
import { memorySandboxCardStore } from './sandbox-card-store.js';
import { checkSandboxCard, checkSandboxExpiry, passesLuhn } from './sandbox-cards.js';

const DAY = 86_400_000;
let delivered: CardPaymentEvent[];
let sandbox: SandboxCardProvider;

beforeEach(() => {
  delivered = [];
  sandbox = new SandboxCardProvider((e) => {
    delivered.push(e);
  });
});

describe('SandboxCardProvider', () => {
  it('settles 4242 4242 4242 4242 and delivers the same event shape the Stripe webhook path produces', async () => {
    const customerId = await sandbox.ensureCustomer({ email: 'a@example.com', name: 'A', userId: 'u1' });
    const intent = await sandbox.createPaymentIntent({ amountCents: 5000, currency: 'usd', customerId, metadata: { pending_id: 'p1' } });
    expect(intent.id).toMatch(/^pi_sandbox_[0-9a-f]{24}$/);
    expect(intent.clientSecret.startsWith(`${intent.id}_secret_`)).toBe(true);

    const event = await sandbox.settle(intent.clientSecret, '4242 4242 4242 4242', '12/34');
    expect(event).toEqual({
      type: 'payment_intent.succeeded', eventId: expect.stringMatching(/^evt_sandbox_/), objectId: intent.id, amountCents: 5000, currency: 'usd',
      metadata: { pending_id: 'p1' }, paymentIntentId: intent.id, subscriptionId: null, customerId, billingReason: null,
    });
    expect(delivered).toEqual([event]);
  });

  it('declines 4000 0000 0000 0002 with card_declined and delivers nothing; the intent can still be paid', async () => {
    const intent = await sandbox.createPaymentIntent({ amountCents: 5000, currency: 'usd', metadata: {} });
    const err = await sandbox.settle(intent.id, '4000 0000 0000 0002', '12/34').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CardProviderError);
    expect(err).toMatchObject({ code: 'card_declined', message: 'Your card was declined.' });
    expect(delivered).toEqual([]);
    await sandbox.settle(intent.id, '4242424242424242', '12/34');
    expect(delivered).toHaveLength(1);
  });

  it('refuses a mistyped number and a real-looking card, and an intent paid twice', async () => {
    const intent = await sandbox.createPaymentIntent({ amountCents: 100, currency: 'usd', metadata: {} });
    await expect(sandbox.settle(intent.id, '4242 4242 4242 4241', '12/34')).rejects.toMatchObject({ code: 'incorrect_number' });
    await expect(sandbox.settle(intent.id, '4111 1111 1111 1111', '12/34')).rejects.toMatchObject({ code: 'card_declined' });
    await sandbox.settle(intent.id, '4242424242424242', '12/34');
    await expect(sandbox.settle(intent.id, '4242424242424242', '12/34')).rejects.toMatchObject({ code: 'payment_intent_unexpected_state' });
    await expect(sandbox.settle('pi_sandbox_unknown', '4242424242424242', '12/34')).rejects.toMatchObject({ code: 'resource_missing' });
    expect(delivered).toHaveLength(1);
  });

  it('pays a subscription first invoice as invoice.paid, renews it when its period ends, and ends when canceled', async () => {
    const sub = await sandbox.createSubscription({ customerId: 'cus_1', priceCents: 4900, intervalDays: 30, metadata: { pending_id: 'p2' } });
    expect(sub.id).toMatch(/^sub_sandbox_/);
    const first = await sandbox.settle(sub.clientSecret, '4242424242424242', '12/34');
    expect(first).toMatchObject({ type: 'invoice.paid', amountCents: 4900, subscriptionId: sub.id, billingReason: 'subscription_create', metadata: { pending_id: 'p2' } });
    const paid = await sandbox.retrieveSubscription(sub.id);
    expect(paid).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, card: { brand: 'visa', last4: '4242' } });
    const end = paid.currentPeriodEnd!;
    expect(end.getTime() - Date.now()).toBeGreaterThan(29.9 * DAY);

    // Nothing is due before the period's end; at it, the next period is charged and the period moves on by 30 days.
    expect(await sandbox.advance(sub.id, new Date(end.getTime() - 1000))).toBe(false);
    expect(await sandbox.advance(sub.id, end)).toBe(true);
    const renewal = delivered.at(-1)!;
    expect(renewal).toMatchObject({ type: 'invoice.paid', amountCents: 4900, subscriptionId: sub.id, billingReason: 'subscription_cycle' });
    expect(renewal.eventId).not.toBe(first.eventId);
    expect((await sandbox.retrieveSubscription(sub.id)).currentPeriodEnd).toEqual(new Date(end.getTime() + 30 * DAY));

    await sandbox.cancelSubscriptionNow(sub.id);
    expect(await sandbox.advance(sub.id, new Date(end.getTime() + 60 * DAY))).toBe(false);
    await expect(sandbox.cancelSubscriptionNow(sub.id)).rejects.toBeInstanceOf(CardProviderError);
    expect(delivered.map((e) => e.type)).toEqual(['invoice.paid', 'invoice.paid', 'customer.subscription.deleted']);
  });

  it('set to cancel at the period end, it charges nothing more and ends then; resumed before, it renews', async () => {
    const sub = await sandbox.createSubscription({ customerId: 'cus_1', priceCents: 1000, intervalDays: 30, metadata: {} });
    await sandbox.settle(sub.clientSecret, '4242424242424242', '12/34');
    const end = (await sandbox.retrieveSubscription(sub.id)).currentPeriodEnd!;
    expect(await sandbox.updateSubscription(sub.id, { cancelAtPeriodEnd: true })).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    expect(await sandbox.updateSubscription(sub.id, { cancelAtPeriodEnd: false })).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    await sandbox.updateSubscription(sub.id, { cancelAtPeriodEnd: true });
    await sandbox.advance(sub.id, end);
    expect(await sandbox.retrieveSubscription(sub.id)).toMatchObject({ status: 'canceled', canceledAt: end });
    expect(delivered.map((e) => e.type)).toEqual([
      'invoice.paid', 'customer.subscription.updated', 'customer.subscription.updated', 'customer.subscription.updated', 'customer.subscription.deleted',
    ]);
  });

  it('with the card that declines charges it goes past_due, retries after 3, 5 and 7 days, then is canceled', async () => {
    const sub = await sandbox.createSubscription({ customerId: 'cus_1', priceCents: 1000, intervalDays: 30, metadata: {} });
    await sandbox.settle(sub.clientSecret, '4242424242424242', '12/34');
    const setup = await sandbox.createSetupIntent('cus_1');
    const declining = await sandbox.confirmSetup(setup.clientSecret, '4000 0000 0000 0341', 'cus_1', '12/34');
    await expect(sandbox.updateSubscription(sub.id, { paymentMethodId: 'pm_sandbox_other' })).rejects.toMatchObject({ code: 'resource_missing' });
    expect(await sandbox.updateSubscription(sub.id, { paymentMethodId: declining.id })).toMatchObject({ card: { last4: '0341' } });
    let at = (await sandbox.retrieveSubscription(sub.id)).currentPeriodEnd!;
    for (const days of [3, 5, 7]) {
      await sandbox.advance(sub.id, at);
      const state = await sandbox.retrieveSubscription(sub.id);
      expect(state).toMatchObject({ status: 'past_due', nextRetryAt: new Date(at.getTime() + days * DAY) });
      expect(delivered.at(-1)).toMatchObject({ type: 'invoice.payment_failed', amountCents: 1000, failureMessage: 'Your card was declined.' });
      at = state.nextRetryAt!;
    }
    await sandbox.advance(sub.id, at);
    expect(await sandbox.retrieveSubscription(sub.id)).toMatchObject({ status: 'canceled', nextRetryAt: null });
    expect(delivered.slice(-2).map((e) => e.type)).toEqual(['invoice.payment_failed', 'customer.subscription.deleted']);
  });

  it('a past_due subscription whose retry goes through (a working card again) is active, the period unchanged', async () => {
    const sub = await sandbox.createSubscription({ customerId: 'cus_1', priceCents: 1000, intervalDays: 30, metadata: {} });
    await sandbox.settle(sub.clientSecret, '4242424242424242', '12/34');
    const good = (await sandbox.retrieveSubscription(sub.id)).card!.paymentMethodId;
    const setup = await sandbox.createSetupIntent('cus_1');
    const declining = await sandbox.confirmSetup(setup.clientSecret, '4000000000000341', 'cus_1', '12/34');
    await sandbox.updateSubscription(sub.id, { paymentMethodId: declining.id });
    const end = (await sandbox.retrieveSubscription(sub.id)).currentPeriodEnd!;
    await sandbox.advance(sub.id, end);
    const failed = await sandbox.retrieveSubscription(sub.id);
    await sandbox.updateSubscription(sub.id, { paymentMethodId: good });
    await sandbox.advance(sub.id, failed.nextRetryAt!);
    expect(await sandbox.retrieveSubscription(sub.id)).toMatchObject({ status: 'active', nextRetryAt: null, currentPeriodEnd: failed.currentPeriodEnd });
    expect(delivered.at(-1)).toMatchObject({ type: 'invoice.paid', billingReason: 'subscription_cycle' });
  });

  it('rebuilds a subscription it forgot (a restart) from its store, a card saved before the store kept cards included', async () => {
    const end = new Date(Date.now() + DAY);
    const store = memorySandboxCardStore();
    store.subscription = async (id) => (id !== 'sub_sandbox_restored' ? undefined : {
      id, customerId: 'cus_9', priceCents: 700, intervalDays: 30, metadata: { orderId: 'o1' }, status: 'active',
      cancelAtPeriodEnd: false, currentPeriodEnd: end, nextRetryAt: null, card: { paymentMethodId: 'pm_sandbox_x', brand: 'visa', last4: '0341' },
    });
    sandbox = new SandboxCardProvider((e) => { delivered.push(e); }, undefined, store);
    await sandbox.advance('sub_sandbox_restored', end);
    expect(delivered.at(-1)).toMatchObject({ type: 'invoice.payment_failed', amountCents: 700, subscriptionId: 'sub_sandbox_restored', metadata: { orderId: 'o1' } });
    await expect(sandbox.retrieveSubscription('sub_sandbox_other')).rejects.toMatchObject({ code: 'resource_missing' });
  });

  it('saves a card through a setup intent, charges it off session, and only its owner may remove it', async () => {
    const setup = await sandbox.createSetupIntent('cus_1');
    await expect(sandbox.confirmSetup(setup.clientSecret, '4242424242424242', 'cus_2', '12/34')).rejects.toMatchObject({ code: 'resource_missing' });
    const card = await sandbox.confirmSetup(setup.clientSecret, '4242424242424242', 'cus_1', '12/34');
    expect(card).toMatchObject({ brand: 'visa', last4: '4242' });
    expect(await sandbox.listSavedCards('cus_1')).toEqual([card]);
    expect(await sandbox.listSavedCards('cus_2')).toEqual([]);

    await expect(sandbox.chargeSavedCard({ customerId: 'cus_2', paymentMethodId: card.id, amountCents: 1000, metadata: {} })).rejects.toMatchObject({ code: 'resource_missing' });
    const charge = await sandbox.chargeSavedCard({ customerId: 'cus_1', paymentMethodId: card.id, amountCents: 1000, metadata: { pending_id: 'p3' } });
    expect(charge.status).toBe('succeeded');
    expect(delivered).toEqual([expect.objectContaining({ type: 'payment_intent.succeeded', paymentIntentId: charge.id, amountCents: 1000, metadata: { pending_id: 'p3' } })]);

    await expect(sandbox.detachPaymentMethod('cus_2', card.id)).rejects.toMatchObject({ code: 'not_found' });
    await sandbox.detachPaymentMethod('cus_1', card.id);
    expect(await sandbox.listSavedCards('cus_1')).toEqual([]);
  });

  it('declines off-session charges on a card that saves but cannot be charged (4000 0000 0000 0341)', async () => {
    const setup = await sandbox.createSetupIntent('cus_1');
    const card = await sandbox.confirmSetup(setup.id, '4000000000000341', 'cus_1', '12/34');
    await expect(sandbox.chargeSavedCard({ customerId: 'cus_1', paymentMethodId: card.id, amountCents: 1000, metadata: {} })).rejects.toMatchObject({ code: 'card_declined' });
    expect(delivered).toEqual([]);
  });

  it('refunds with cumulative totals like Stripe and never more than was paid', async () => {
    const intent = await sandbox.createPaymentIntent({ amountCents: 5000, currency: 'usd', metadata: { pending_id: 'p4' } });
    await sandbox.settle(intent.id, '4242424242424242', '12/34');
    await sandbox.refund(intent.id, 2000);
    await expect(sandbox.refund(intent.id, 3001)).rejects.toMatchObject({ code: 'amount_too_large' });
    await sandbox.refund(intent.id);
    const refunds = delivered.filter((e) => e.type === 'charge.refunded');
    expect(refunds.map((e) => e.amountCents)).toEqual([2000, 5000]);
    expect(refunds.every((e) => e.paymentIntentId === intent.id && e.metadata.pending_id === 'p4')).toBe(true);
  });

  it('accepts no webhooks', () => {
    expect(() => sandbox.verifyWebhook()).toThrow(WebhookSignatureError);
  });
});

describe('sandbox test cards', () => {
  it('knows the Luhn checksum', () => {
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('4000000000000002')).toBe(true);
    expect(passesLuhn('4242424242424243')).toBe(false);
  });

  it('accepts separators and refuses letters or short numbers', () => {
    expect(checkSandboxCard('4242-4242-4242-4242')).toMatchObject({ ok: true, last4: '4242' });
    expect(checkSandboxCard('4242 4242 abcd 4242')).toMatchObject({ ok: false, code: 'incorrect_number' });
    expect(checkSandboxCard('42')).toMatchObject({ ok: false, code: 'incorrect_number' });
  });
});

describe('the sandbox card\'s expiry (issue 13: 12/30 was stored as 11/2029)', () => {
  // Late on 31 December in UTC, already 1 January in Tokyo, still 31 December in Los Angeles: a month or year off by
  // one anywhere, or a local-time reading, shows here.
  const at = (iso: string) => () => new Date(iso);

  it('stores the month and year that were typed, in every accepted form', async () => {
    for (const [typed, month, year] of [['12/30', 12, 2030], ['01/31', 1, 2031], ['1/32', 1, 2032], [' 07 / 2033 ', 7, 2033], ['12/2030', 12, 2030]] as const) {
      const sb = new SandboxCardProvider(() => {}, at('2029-12-31T23:30:00Z'));
      const setup = await sb.createSetupIntent('cus_1');
      const card = await sb.confirmSetup(setup.id, '4242424242424242', 'cus_1', typed);
      expect(card, typed).toMatchObject({ expMonth: month, expYear: year });
      expect(await sb.listSavedCards('cus_1'), typed).toEqual([card]);
    }
  });

  it('a card is valid through the last day of its month (UTC), and refused after', () => {
    expect(checkSandboxExpiry('12/29', new Date('2029-12-31T23:59:59Z'))).toMatchObject({ ok: true, month: 12, year: 2029 });
    expect(checkSandboxExpiry('12/29', new Date('2030-01-01T00:00:00Z'))).toMatchObject({ ok: false, code: 'expired_card' });
    expect(checkSandboxExpiry('01/30', new Date('2029-12-31T23:59:59Z'))).toMatchObject({ ok: true, month: 1, year: 2030 });
    expect(checkSandboxExpiry('11/29', new Date('2029-12-01T00:00:00Z'))).toMatchObject({ ok: false, code: 'expired_card' });
  });

  it('refuses months and years that do not exist, and malformed input', () => {
    const now = new Date('2029-06-15T12:00:00Z');
    for (const typed of ['00/30', '13/30', '99/30']) expect(checkSandboxExpiry(typed, now), typed).toMatchObject({ ok: false, code: 'invalid_expiry_month' });
    for (const typed of ['', '1230', '12/3', '12/303', 'ab/cd', '12-30', '/30', '12/']) {
      expect(checkSandboxExpiry(typed, now), typed).toMatchObject({ ok: false, code: 'invalid_expiry_month' });
    }
    expect(checkSandboxExpiry('12/2099', now)).toMatchObject({ ok: false, code: 'invalid_expiry_year' });
  });

  it('an expired or impossible expiry declines the payment and saves nothing', async () => {
    const sb = new SandboxCardProvider(() => {}, at('2029-06-15T12:00:00Z'));
    const intent = await sb.createPaymentIntent({ amountCents: 1000, currency: 'usd', metadata: {} });
    await expect(sb.settle(intent.id, '4242424242424242', '05/29')).rejects.toMatchObject({ code: 'expired_card' });
    await expect(sb.settle(intent.id, '4242424242424242', '13/29')).rejects.toMatchObject({ code: 'invalid_expiry_month' });
    await sb.settle(intent.id, '4242424242424242', '06/29');
    const setup = await sb.createSetupIntent('cus_1');
    await expect(sb.confirmSetup(setup.id, '4242424242424242', 'cus_1', '01/20')).rejects.toMatchObject({ code: 'expired_card' });
    expect(await sb.listSavedCards('cus_1')).toEqual([]);
  });

  it('a saved card that has expired since is declined off session, like Stripe', async () => {
    let now = new Date('2029-06-15T12:00:00Z');
    const sb = new SandboxCardProvider(() => {}, () => now);
    const setup = await sb.createSetupIntent('cus_1');
    const card = await sb.confirmSetup(setup.id, '4242424242424242', 'cus_1', '06/29');
    now = new Date('2029-07-01T00:00:01Z');
    await expect(sb.chargeSavedCard({ customerId: 'cus_1', paymentMethodId: card.id, amountCents: 1000, metadata: {} })).rejects.toMatchObject({ code: 'expired_card' });
  });
});
