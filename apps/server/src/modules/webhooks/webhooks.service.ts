import { ERRORS } from '@cellport/shared';
import {
  WEBHOOK_ENDPOINTS_PER_CUSTOMER_MAX, WEBHOOK_LOG_LIMIT, WEBHOOK_RETRY_WINDOW_HOURS, WEBHOOK_TEST_EVENT,
  type WebhookDelivery, type WebhookEndpoint, type WebhookEventType,
} from '@cellport/shared/schemas/webhooks';
import type { Tx } from '../../db/database.js';
import type { JobQueue } from '../../jobs/queue.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { NotificationsService } from '../notifications/index.js';
import { webhookPayload } from './webhook-events.js';
import { newWebhookSecret, signWebhook, type WebhookSecretBox } from './webhook-signing.js';
import type { DeliveryWorker } from './delivery-worker.js';
import { describePorts } from '../../lib/webhook-ports.js';
import { postWebhook, refusedPort, type TargetPolicy, type WebhookAnswer } from './webhook-target.js';
import { JOBS } from '../../jobs/job-kinds.js';
import type { AppContext } from '../../context.js';
import { listenForModemChanges } from './webhook-modem-events.js';
import type { DeliveryRow, EndpointRow, WebhooksRepository } from './webhooks.repository.js';

/** Jobs of this kind were armed by versions before issue 26; the planner now hands endpoints to the worker itself. */
export const WEBHOOK_JOB = JOBS.webhookDeliver.name;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 12 * 60 * 60_000;
/** How many deliveries of one endpoint go out back to back after a success, before the next round takes over. */
const BURST = 20;

/** Wait before attempt n+1 after n failed attempts: 30 s, 1 min, 2 min, … doubling, at most 12 h. */
export const retryDelayMs = (failedAttempts: number) =>
  Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(Math.max(failedAttempts - 1, 0), 20));

const endpointToApi = (row: EndpointRow): WebhookEndpoint => ({
  _id: row.id, url: row.url, eventTypes: row.event_types, enabled: row.enabled, disabledReason: row.disabled_reason,
  createdAt: row.created_at.toISOString(),
});
const deliveryToApi = (row: DeliveryRow): WebhookDelivery => ({
  _id: row.id, msgId: row.msg_id, eventType: row.event_type, status: row.status, attempts: row.attempts,
  responseStatus: row.response_status, latencyMs: row.latency_ms, error: row.last_error,
  createdAt: row.created_at.toISOString(), lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
  nextAttemptAt: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
});
export interface WebhooksDeps {
  repo: WebhooksRepository; queue: JobQueue; notifications: NotificationsService; box: WebhookSecretBox; policy: TargetPolicy;
  /** Where the sends run: WEBHOOKS_CONCURRENCY endpoints at once. */
  worker: DeliveryWorker;
}

/**
 * Customer webhook endpoints and their deliveries. Each round of the job runner, a planner finds the endpoints whose
 * oldest pending delivery is due and hands them to the delivery worker (`delivery-worker.ts`), without waiting: the
 * worker leases that delivery in a short transaction (the endpoint's row lock serializes instances), sends it (an
 * HTTP call must not hold a row lock, nor the runner), records the answer and goes on with the endpoint's next one.
 * A crash mid-request leaves the lease to expire and the delivery due again: at least once, and in order, since only
 * the oldest pending delivery of an endpoint is ever sent.
 */
export class WebhooksService {
  private readonly box: WebhookSecretBox;
  private readonly worker: DeliveryWorker;

  constructor(private readonly deps: WebhooksDeps) {
    this.box = deps.box;
    this.worker = deps.worker;
  }

  /** Registers the planner on the queue (and a no-op for delivery jobs an earlier version left armed). */
  register(): void {
    this.deps.queue.handle(JOBS.webhookDeliver, async () => {});
    this.deps.queue.plan((now) => this.plan(now));
  }

  /** modem.down / modem.up from the modems' announcements (a background subscription: background.ts); returns its stop. */
  listenForModemChanges(ctx: Pick<AppContext, 'bus' | 'log'>): () => void { return listenForModemChanges(ctx, this.deps.repo); }

  /** Resolves when no delivery is in flight on this instance: tests wait for what a round started. */
  idle(): Promise<void> { return this.worker.idle(); }

  /** Shutdown: no delivery starts from now on; resolves when those in flight have finished (each within its deadline). */
  stop(): Promise<void> { return this.worker.stop(); }

  // ---- endpoints

  async list(userId: string): Promise<WebhookEndpoint[]> {
    return (await this.deps.repo.endpoints(userId)).map(endpointToApi);
  }

  async create(userId: string, url: string, eventTypes: WebhookEventType[]): Promise<{ data: WebhookEndpoint; secret: string }> {
    this.assertPortAllowed(url);
    const secret = newWebhookSecret();
    const { repo } = this.deps;
    const row = await repo.transaction(async (tx) => {
      if (await repo.lockAndCountEndpoints(tx, userId) >= WEBHOOK_ENDPOINTS_PER_CUSTOMER_MAX) throw new AppError('WEBHOOKS_LIMIT');
      return repo.insertEndpoint(tx, { user_id: userId, url, event_types: [...new Set(eventTypes)], secret_enc: this.box.seal(secret) });
    });
    return { data: endpointToApi(row), secret };
  }

  async update(userId: string, id: string, patch: { url?: string; eventTypes?: WebhookEventType[]; enabled?: boolean }): Promise<WebhookEndpoint> {
    if (patch.url !== undefined) this.assertPortAllowed(patch.url);
    const { repo } = this.deps;
    return repo.transaction(async (tx) => {
      const current = await this.owned(tx, userId, id, true);
      const reenable = patch.enabled === true && !current.enabled;
      const row = await repo.updateEndpoint(tx, id, {
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.eventTypes !== undefined ? { event_types: [...new Set(patch.eventTypes)] } : {}),
        ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
        ...(patch.enabled !== undefined ? { disabled_reason: null, disabled_at: patch.enabled ? null : new Date() } : {}),
      });
      // Held deliveries go out at once when the customer turns the endpoint back on.
      if (reenable) await repo.releaseHeld(tx, id);
      return endpointToApi(row);
    });
  }

  async remove(userId: string, id: string): Promise<void> {
    if (!await this.deps.repo.deleteEndpoint(userId, id)) throw notFound();
  }

  async deliveries(userId: string, id: string): Promise<WebhookDelivery[]> {
    await this.owned(undefined, userId, id);
    return (await this.deps.repo.deliveries(id, WEBHOOK_LOG_LIMIT)).map(deliveryToApi);
  }

  /** "Send test event": a `webhook.test` message to this endpoint alone, whatever it subscribed to. */
  async sendTest(userId: string, id: string): Promise<WebhookDelivery> {
    await this.owned(undefined, userId, id);
    const payload = webhookPayload(WEBHOOK_TEST_EVENT, { endpointId: id, message: 'This is a test event from Cellport.' });
    return deliveryToApi(await this.deps.repo.insertDelivery({ endpoint_id: id, user_id: userId, event_type: WEBHOOK_TEST_EVENT, payload }));
  }

  /** Sends one delivery again: a new delivery with the same message id and body, at the end of the endpoint's queue. */
  async redeliver(userId: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
    await this.owned(undefined, userId, id);
    const row = await this.deps.repo.copyDelivery(userId, id, deliveryId);
    if (!row) throw notFound();
    return deliveryToApi(row);
  }

  /** WEBHOOK_PORT_NOT_ALLOWED (400) naming the port and the allowed ones, which travel in the body for the page's text. */
  private assertPortAllowed(url: string): void {
    const port = refusedPort(new URL(url), this.deps.policy);
    if (port === null) return;
    const allowed = describePorts(this.deps.policy.allowedPorts);
    const message = ERRORS.WEBHOOK_PORT_NOT_ALLOWED.replace('{{port}}', String(port)).replace('{{allowed}}', allowed);
    throw new AppError('WEBHOOK_PORT_NOT_ALLOWED', 400, message, { port, allowed });
  }

  private async owned(tx: Tx | undefined, userId: string, id: string, lock = false): Promise<EndpointRow> {
    const row = await this.deps.repo.owned(tx, userId, id, lock);
    if (!row) throw notFound();
    return row;
  }

  // ---- delivery

  /**
   * Hands the worker every enabled endpoint whose oldest pending delivery is due and not in flight, the longest
   * waiting first, as many as it has free slots; returns at once (the sends run on the worker, not in the round).
   */
  async plan(now: Date): Promise<void> {
    if (this.worker.free <= 0) return;
    for (const endpointId of await this.deps.repo.dueEndpoints(now)) {
      if (this.worker.free <= 0) break;
      this.worker.offer(endpointId, () => this.deliver(endpointId, now));
    }
  }

  /** On the worker: lease the endpoint's oldest pending delivery if it is still due, send it, go on with the next. */
  private async deliver(endpointId: string, now: Date): Promise<void> {
    const first = await this.deps.repo.transaction((tx) => this.lease(tx, endpointId, now));
    if (first) await this.sendAndContinue(first, now);
  }

  private async lease(tx: Tx, endpointId: string, now: Date): Promise<{ endpoint: EndpointRow; delivery: DeliveryRow } | null> {
    // The endpoint's row lock serializes claims of one endpoint across instances.
    const { endpoint, head } = await this.deps.repo.lockedHead(tx, endpointId);
    if (!endpoint?.enabled) return null;
    if (!head || head.next_attempt_at > now || (head.leased_until && head.leased_until >= now)) return null;
    // From the later of the round's time and the clock: the last delivery of a burst is leased long after its round.
    await this.deps.repo.lease(tx, head.id, new Date(Math.max(now.getTime(), Date.now()) + this.deps.policy.timeoutMs + 30_000));
    return { endpoint, delivery: head };
  }

  private async sendAndContinue(first: { endpoint: EndpointRow; delivery: DeliveryRow }, now: Date): Promise<void> {
    let next: typeof first | null = first;
    for (let i = 0; next && i < BURST; i++) {
      const ok = await this.attempt(next.endpoint, next.delivery, now);
      if (!ok || this.worker.stopping) return;
      const endpointId: string = next.endpoint.id;
      next = await this.deps.repo.transaction((tx) => this.lease(tx, endpointId, now));
    }
    // More than a burst of work left: the next round's planner offers the endpoint again.
  }

  /** Sends one delivery and records the answer; true when it was accepted (2xx). */
  private async attempt(endpoint: EndpointRow, delivery: DeliveryRow, now: Date): Promise<boolean> {
    const body = JSON.stringify(delivery.payload);
    const timestamp = Math.floor(Date.now() / 1000);
    const answer: WebhookAnswer = await postWebhook({
      url: endpoint.url, body,
      headers: {
        'content-type': 'application/json', 'user-agent': 'Cellport-Webhooks/1',
        'webhook-id': delivery.msg_id, 'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(this.box.open(endpoint.secret_enc), delivery.msg_id, timestamp, body),
      },
    }, this.deps.policy);
    const ok = answer.error === null;
    const attempts = delivery.attempts + 1;
    const givenUp = !ok && now.getTime() - delivery.created_at.getTime() >= WEBHOOK_RETRY_WINDOW_HOURS * 3600_000;
    await this.deps.repo.transaction(async (tx) => {
      await this.deps.repo.recordAttempt(tx, delivery.id, {
        status: ok ? 'succeeded' : givenUp ? 'failed' : 'pending',
        attempts, response_status: answer.status, latency_ms: answer.latencyMs, last_error: answer.error,
        ...(ok || givenUp ? {} : { next_attempt_at: new Date(now.getTime() + retryDelayMs(attempts)) }),
      });
      if (givenUp) await this.disable(tx, endpoint, answer);
    });
    return ok;
  }

  /** Deliveries kept failing for the whole retry window: the endpoint stops, and its owner is told. */
  private async disable(tx: Tx, endpoint: EndpointRow, answer: WebhookAnswer): Promise<void> {
    const reason = `Deliveries failed for ${WEBHOOK_RETRY_WINDOW_HOURS} hours (last: ${answer.error ?? 'error'})`.slice(0, 500);
    if (!await this.deps.repo.disableEndpoint(tx, endpoint.id, reason)) return;
    await this.deps.notifications.notify(endpoint.user_id, 'other', 'webhook_disabled', { url: endpoint.url }, tx);
    const email = await this.deps.repo.ownerEmail(tx, endpoint.user_id);
    await this.deps.notifications.alertOperators(tx, 'operator_webhook_disabled', { url: endpoint.url, email: email ?? '' });
  }
}
