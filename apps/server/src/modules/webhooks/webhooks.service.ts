import { ERRORS } from '@cellport/shared';
import { sql } from 'kysely';
import {
  WEBHOOK_ENDPOINTS_PER_CUSTOMER_MAX, WEBHOOK_LOG_LIMIT, WEBHOOK_RETRY_WINDOW_HOURS, WEBHOOK_TEST_EVENT,
  type WebhookDelivery, type WebhookEndpoint, type WebhookEventType,
} from '@cellport/shared/schemas/webhooks';
import type { Database, Tx } from '../../db/database.js';
import type { JobQueue } from '../../jobs/queue.js';
import { AppError, notFound } from '../../lib/app-error.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import { newMessageId, webhookPayload } from './webhook-events.js';
import { newWebhookSecret, signWebhook, type WebhookSecretBox } from './webhook-signing.js';
import type { DeliveryWorker } from './delivery-worker.js';
import { describePorts } from './webhook-ports.js';
import { postWebhook, refusedPort, type TargetPolicy, type WebhookAnswer } from './webhook-target.js';
import { JOBS } from '../../jobs/job-kinds.js';
import type { AppContext } from '../../context.js';
import { listenForModemChanges } from './webhook-modem-events.js';

/** Jobs of this kind were armed by versions before issue 26; the planner now hands endpoints to the worker itself. */
export const WEBHOOK_JOB = JOBS.webhookDeliver.name;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 12 * 60 * 60_000;
/** How many deliveries of one endpoint go out back to back after a success, before the next round takes over. */
const BURST = 20;

/** Wait before attempt n+1 after n failed attempts: 30 s, 1 min, 2 min, … doubling, at most 12 h. */
export const retryDelayMs = (failedAttempts: number) =>
  Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(Math.max(failedAttempts - 1, 0), 20));

interface EndpointRow {
  id: string; user_id: string; url: string; event_types: string[]; secret_enc: string; enabled: boolean;
  disabled_reason: string | null; created_at: Date;
}
interface DeliveryRow {
  id: string; endpoint_id: string; user_id: string; msg_id: string; event_type: string; payload: Record<string, unknown>;
  status: 'pending' | 'succeeded' | 'failed'; attempts: number; next_attempt_at: Date; leased_until: Date | null;
  last_attempt_at: Date | null; response_status: number | null; latency_ms: number | null; last_error: string | null;
  created_at: Date;
}

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
const ENDPOINT_COLUMNS = ['id', 'user_id', 'url', 'event_types', 'secret_enc', 'enabled', 'disabled_reason', 'created_at'] as const;

export interface WebhooksDeps {
  db: Database; queue: JobQueue; notifications: NotificationsService; box: WebhookSecretBox; policy: TargetPolicy;
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
  listenForModemChanges(ctx: AppContext): () => void { return listenForModemChanges(ctx); }

  /** Resolves when no delivery is in flight on this instance: tests wait for what a round started. */
  idle(): Promise<void> { return this.worker.idle(); }

  /** Shutdown: no delivery starts from now on; resolves when those in flight have finished (each within its deadline). */
  stop(): Promise<void> { return this.worker.stop(); }

  // ---- endpoints

  async list(userId: string): Promise<WebhookEndpoint[]> {
    const rows = await this.deps.db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS)
      .where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
    return rows.map(endpointToApi);
  }

  async create(userId: string, url: string, eventTypes: WebhookEventType[]): Promise<{ data: WebhookEndpoint; secret: string }> {
    this.assertPortAllowed(url);
    const secret = newWebhookSecret();
    const row = await this.deps.db.transaction().execute(async (tx) => {
      await tx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
      const { n } = await tx.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId).executeTakeFirstOrThrow();
      if (Number(n) >= WEBHOOK_ENDPOINTS_PER_CUSTOMER_MAX) throw new AppError('WEBHOOKS_LIMIT');
      return tx.insertInto('webhook_endpoints')
        .values({ user_id: userId, url, event_types: [...new Set(eventTypes)], secret_enc: this.box.seal(secret), disabled_reason: null, disabled_at: null })
        .returning(ENDPOINT_COLUMNS).executeTakeFirstOrThrow();
    });
    return { data: endpointToApi(row), secret };
  }

  async update(userId: string, id: string, patch: { url?: string; eventTypes?: WebhookEventType[]; enabled?: boolean }): Promise<WebhookEndpoint> {
    if (patch.url !== undefined) this.assertPortAllowed(patch.url);
    return this.deps.db.transaction().execute(async (tx) => {
      const current = await this.owned(tx, userId, id, true);
      const reenable = patch.enabled === true && !current.enabled;
      const row = await tx.updateTable('webhook_endpoints').set({
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.eventTypes !== undefined ? { event_types: [...new Set(patch.eventTypes)] } : {}),
        ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
        ...(patch.enabled !== undefined ? { disabled_reason: null, disabled_at: patch.enabled ? null : new Date() } : {}),
      }).where('id', '=', id).returning(ENDPOINT_COLUMNS).executeTakeFirstOrThrow();
      // Held deliveries go out at once when the customer turns the endpoint back on.
      if (reenable) {
        await tx.updateTable('webhook_deliveries').set({ next_attempt_at: sql`now()`, leased_until: null })
          .where('endpoint_id', '=', id).where('status', '=', 'pending').execute();
      }
      return endpointToApi(row);
    });
  }

  async remove(userId: string, id: string): Promise<void> {
    const row = await this.deps.db.deleteFrom('webhook_endpoints').where('id', '=', id).where('user_id', '=', userId)
      .returning('id').executeTakeFirst();
    if (!row) throw notFound();
  }

  async deliveries(userId: string, id: string): Promise<WebhookDelivery[]> {
    await this.owned(this.deps.db, userId, id);
    const rows = await this.deps.db.selectFrom('webhook_deliveries').selectAll()
      .where('endpoint_id', '=', id).orderBy('seq', 'desc').limit(WEBHOOK_LOG_LIMIT).execute();
    return rows.map((r) => deliveryToApi(r as DeliveryRow));
  }

  /** "Send test event": a `webhook.test` message to this endpoint alone, whatever it subscribed to. */
  async sendTest(userId: string, id: string): Promise<WebhookDelivery> {
    await this.owned(this.deps.db, userId, id);
    const payload = webhookPayload(WEBHOOK_TEST_EVENT, { endpointId: id, message: 'This is a test event from Cellport.' });
    const row = await this.deps.db.insertInto('webhook_deliveries').values({
      endpoint_id: id, user_id: userId, msg_id: newMessageId(), event_type: WEBHOOK_TEST_EVENT, payload: JSON.stringify(payload),
      leased_until: null, last_attempt_at: null, response_status: null, latency_ms: null, last_error: null,
    }).returningAll().executeTakeFirstOrThrow();
    return deliveryToApi(row as DeliveryRow);
  }

  /** Sends one delivery again: a new delivery with the same message id and body, at the end of the endpoint's queue. */
  async redeliver(userId: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
    await this.owned(this.deps.db, userId, id);
    const row = await sql<DeliveryRow>`
      insert into webhook_deliveries (endpoint_id, user_id, msg_id, event_type, payload)
      select endpoint_id, user_id, msg_id, event_type, payload from webhook_deliveries
      where id = ${deliveryId} and endpoint_id = ${id} and user_id = ${userId}
      returning *`.execute(this.deps.db);
    if (!row.rows[0]) throw notFound();
    return deliveryToApi(row.rows[0]);
  }

  /** WEBHOOK_PORT_NOT_ALLOWED (400) naming the port and the allowed ones, which travel in the body for the page's text. */
  private assertPortAllowed(url: string): void {
    const port = refusedPort(new URL(url), this.deps.policy);
    if (port === null) return;
    const allowed = describePorts(this.deps.policy.allowedPorts);
    const message = ERRORS.WEBHOOK_PORT_NOT_ALLOWED.replace('{{port}}', String(port)).replace('{{allowed}}', allowed);
    throw new AppError('WEBHOOK_PORT_NOT_ALLOWED', 400, message, { port, allowed });
  }

  private async owned(q: Database | Tx, userId: string, id: string, lock = false): Promise<EndpointRow> {
    let query = q.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).where('id', '=', id).where('user_id', '=', userId);
    if (lock) query = query.forUpdate();
    const row = await query.executeTakeFirst();
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
    const { rows } = await sql<{ endpoint_id: string }>`
      select d.endpoint_id from webhook_deliveries d
      join webhook_endpoints e on e.id = d.endpoint_id and e.enabled
      where d.status = 'pending' and d.next_attempt_at <= ${now} and (d.leased_until is null or d.leased_until < ${now})
        and d.seq = (select min(h.seq) from webhook_deliveries h where h.endpoint_id = d.endpoint_id and h.status = 'pending')
      order by d.next_attempt_at, d.seq
      limit 1000`.execute(this.deps.db);
    for (const { endpoint_id: endpointId } of rows) {
      if (this.worker.free <= 0) break;
      this.worker.offer(endpointId, () => this.deliver(endpointId, now));
    }
  }

  /** On the worker: lease the endpoint's oldest pending delivery if it is still due, send it, go on with the next. */
  private async deliver(endpointId: string, now: Date): Promise<void> {
    const first = await this.deps.db.transaction().execute((tx) => this.lease(tx, endpointId, now));
    if (first) await this.sendAndContinue(first, now);
  }

  private async lease(tx: Tx, endpointId: string, now: Date): Promise<{ endpoint: EndpointRow; delivery: DeliveryRow } | null> {
    // The endpoint's row lock serializes claims of one endpoint across instances.
    const endpoint = await tx.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).where('id', '=', endpointId)
      .forUpdate().executeTakeFirst();
    if (!endpoint?.enabled) return null;
    const head = await tx.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId)
      .where('status', '=', 'pending').orderBy('seq').limit(1).executeTakeFirst() as DeliveryRow | undefined;
    if (!head || head.next_attempt_at > now || (head.leased_until && head.leased_until >= now)) return null;
    // From the later of the round's time and the clock: the last delivery of a burst is leased long after its round.
    await tx.updateTable('webhook_deliveries')
      .set({ leased_until: new Date(Math.max(now.getTime(), Date.now()) + this.deps.policy.timeoutMs + 30_000) })
      .where('id', '=', head.id).execute();
    return { endpoint, delivery: head };
  }

  private async sendAndContinue(first: { endpoint: EndpointRow; delivery: DeliveryRow }, now: Date): Promise<void> {
    let next: typeof first | null = first;
    for (let i = 0; next && i < BURST; i++) {
      const ok = await this.attempt(next.endpoint, next.delivery, now);
      if (!ok || this.worker.stopping) return;
      const endpointId: string = next.endpoint.id;
      next = await this.deps.db.transaction().execute((tx) => this.lease(tx, endpointId, now));
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
    await this.deps.db.transaction().execute(async (tx) => {
      await tx.updateTable('webhook_deliveries').set({
        status: ok ? 'succeeded' : givenUp ? 'failed' : 'pending',
        attempts, leased_until: null, last_attempt_at: new Date(), response_status: answer.status,
        latency_ms: answer.latencyMs, last_error: answer.error,
        ...(ok || givenUp ? {} : { next_attempt_at: new Date(now.getTime() + retryDelayMs(attempts)) }),
      }).where('id', '=', delivery.id).where('status', '=', 'pending').execute();
      if (givenUp) await this.disable(tx, endpoint, answer);
    });
    return ok;
  }

  /** Deliveries kept failing for the whole retry window: the endpoint stops, and its owner is told. */
  private async disable(tx: Tx, endpoint: EndpointRow, answer: WebhookAnswer): Promise<void> {
    const reason = `Deliveries failed for ${WEBHOOK_RETRY_WINDOW_HOURS} hours (last: ${answer.error ?? 'error'})`.slice(0, 500);
    const row = await tx.updateTable('webhook_endpoints').set({ enabled: false, disabled_reason: reason, disabled_at: new Date() })
      .where('id', '=', endpoint.id).where('enabled', '=', true).returning('id').executeTakeFirst();
    if (!row) return;
    await this.deps.notifications.notify(endpoint.user_id, 'other', 'webhook_disabled', { url: endpoint.url }, tx);
    const owner = await tx.selectFrom('users').select('email').where('id', '=', endpoint.user_id).executeTakeFirst();
    await this.deps.notifications.alertOperators(tx, 'operator_webhook_disabled', { url: endpoint.url, email: owner?.email ?? '' });
  }
}
