import { sql, type RawBuilder } from 'kysely';
import type { WebhookEventType } from '@cellport/shared/schemas/webhooks';
import type { Database, Tx } from '../../db/database.js';
import { newMessageId, webhookPayload } from './webhook-events.js';

type Q = Database | Tx;

export interface EndpointRow {
  id: string; user_id: string; url: string; event_types: string[]; secret_enc: string; enabled: boolean;
  disabled_reason: string | null; created_at: Date;
}
export interface DeliveryRow {
  id: string; endpoint_id: string; user_id: string; msg_id: string; event_type: string; payload: Record<string, unknown>;
  status: 'pending' | 'succeeded' | 'failed'; attempts: number; next_attempt_at: Date; leased_until: Date | null;
  last_attempt_at: Date | null; response_status: number | null; latency_ms: number | null; last_error: string | null;
  created_at: Date;
}
/** What a delivery attempt records (webhooks.service.ts decides it). */
export interface AttemptRecord {
  status: DeliveryRow['status']; attempts: number; response_status: number | null; latency_ms: number | null;
  last_error: string | null; next_attempt_at?: Date;
}

const ENDPOINT_COLUMNS = ['id', 'user_id', 'url', 'event_types', 'secret_enc', 'enabled', 'disabled_reason', 'created_at'] as const;

/**
 * The one publisher of customer webhook events. Pass the transaction of the change the event tells about: the
 * delivery rows commit (or roll back) with it, one per enabled endpoint of the customer that subscribed to the
 * type, and the delivery worker (webhooks.service.ts) picks them up. One statement; nothing when nobody listens.
 */
export async function publishWebhookEvent(
  q: Q, userId: string, type: WebhookEventType, data: Record<string, unknown>,
): Promise<void> {
  await webhookEventInsert(userId, type, data).execute(q);
}

/** publishWebhookEvent's statement, unexecuted: for a caller that puts it in a statement of its own as a CTE. */
export function webhookEventInsert(userId: string, type: WebhookEventType, data: Record<string, unknown>): RawBuilder<unknown> {
  const payload = JSON.stringify(webhookPayload(type, data), (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
  return sql`
    insert into webhook_deliveries (endpoint_id, user_id, msg_id, event_type, payload)
    select e.id, e.user_id, ${newMessageId()}, ${type}, ${payload}::jsonb
    from webhook_endpoints e
    where e.user_id = ${userId} and e.enabled and ${type} = any(e.event_types)
    order by e.created_at`;
}

/** Customers' webhook endpoints, their deliveries, and the modems' last state the modem events were judged by. */
export class WebhooksRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  // ---- endpoints

  async endpoints(userId: string): Promise<EndpointRow[]> {
    return this.db.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS)
      .where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
  }

  /** Locks the customer's row (serializes their endpoint creations) and counts their endpoints. */
  async lockAndCountEndpoints(tx: Tx, userId: string): Promise<number> {
    await tx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();
    const { n } = await tx.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<string>().as('n'))
      .where('user_id', '=', userId).executeTakeFirstOrThrow();
    return Number(n);
  }

  async insertEndpoint(tx: Tx, values: { user_id: string; url: string; event_types: string[]; secret_enc: string }): Promise<EndpointRow> {
    return tx.insertInto('webhook_endpoints').values({ ...values, disabled_reason: null, disabled_at: null })
      .returning(ENDPOINT_COLUMNS).executeTakeFirstOrThrow();
  }

  /** The customer's endpoint, or undefined; `lock` holds its row for the rest of the transaction. */
  async owned(q: Q | undefined, userId: string, id: string, lock = false): Promise<EndpointRow | undefined> {
    let query = (q ?? this.db).selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).where('id', '=', id).where('user_id', '=', userId);
    if (lock) query = query.forUpdate();
    return query.executeTakeFirst();
  }

  async updateEndpoint(
    tx: Tx, id: string,
    set: { url?: string; event_types?: string[]; enabled?: boolean; disabled_reason?: null; disabled_at?: Date | null },
  ): Promise<EndpointRow> {
    return tx.updateTable('webhook_endpoints').set(set).where('id', '=', id).returning(ENDPOINT_COLUMNS).executeTakeFirstOrThrow();
  }

  /** Held deliveries of an endpoint turned back on go out at once. */
  async releaseHeld(tx: Tx, endpointId: string): Promise<void> {
    await tx.updateTable('webhook_deliveries').set({ next_attempt_at: sql`now()`, leased_until: null })
      .where('endpoint_id', '=', endpointId).where('status', '=', 'pending').execute();
  }

  /** Deletes the customer's endpoint; false when there was none. */
  async deleteEndpoint(userId: string, id: string): Promise<boolean> {
    const row = await this.db.deleteFrom('webhook_endpoints').where('id', '=', id).where('user_id', '=', userId)
      .returning('id').executeTakeFirst();
    return Boolean(row);
  }

  /** Stops an endpoint that kept failing; false when it was already stopped (another instance did it). */
  async disableEndpoint(tx: Tx, id: string, reason: string): Promise<boolean> {
    const row = await tx.updateTable('webhook_endpoints').set({ enabled: false, disabled_reason: reason, disabled_at: new Date() })
      .where('id', '=', id).where('enabled', '=', true).returning('id').executeTakeFirst();
    return Boolean(row);
  }

  async ownerEmail(tx: Tx, userId: string): Promise<string | undefined> {
    return (await tx.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())?.email;
  }

  // ---- deliveries

  /** An endpoint's latest deliveries, newest first. */
  async deliveries(endpointId: string, limit: number): Promise<DeliveryRow[]> {
    const rows = await this.db.selectFrom('webhook_deliveries').selectAll()
      .where('endpoint_id', '=', endpointId).orderBy('seq', 'desc').limit(limit).execute();
    return rows as DeliveryRow[];
  }

  /** One message to one endpoint (the test event), at the end of its queue. */
  async insertDelivery(values: { endpoint_id: string; user_id: string; event_type: string; payload: Record<string, unknown> }): Promise<DeliveryRow> {
    const row = await this.db.insertInto('webhook_deliveries').values({
      endpoint_id: values.endpoint_id, user_id: values.user_id, msg_id: newMessageId(), event_type: values.event_type,
      payload: JSON.stringify(values.payload),
      leased_until: null, last_attempt_at: null, response_status: null, latency_ms: null, last_error: null,
    }).returningAll().executeTakeFirstOrThrow();
    return row as DeliveryRow;
  }

  /** A new delivery with the same message id and body as one of the customer's, or undefined when there is none. */
  async copyDelivery(userId: string, endpointId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
    const row = await sql<DeliveryRow>`
      insert into webhook_deliveries (endpoint_id, user_id, msg_id, event_type, payload)
      select endpoint_id, user_id, msg_id, event_type, payload from webhook_deliveries
      where id = ${deliveryId} and endpoint_id = ${endpointId} and user_id = ${userId}
      returning *`.execute(this.db);
    return row.rows[0];
  }

  /**
   * Enabled endpoints whose oldest pending delivery is due at `now` and not leased, the longest waiting first
   * (at most 1000).
   */
  async dueEndpoints(now: Date): Promise<string[]> {
    const { rows } = await sql<{ endpoint_id: string }>`
      select d.endpoint_id from webhook_deliveries d
      join webhook_endpoints e on e.id = d.endpoint_id and e.enabled
      where d.status = 'pending' and d.next_attempt_at <= ${now} and (d.leased_until is null or d.leased_until < ${now})
        and d.seq = (select min(h.seq) from webhook_deliveries h where h.endpoint_id = d.endpoint_id and h.status = 'pending')
      order by d.next_attempt_at, d.seq
      limit 1000`.execute(this.db);
    return rows.map((r) => r.endpoint_id);
  }

  /**
   * The endpoint (its row locked: that serializes claims of one endpoint across instances) and its oldest pending
   * delivery.
   */
  async lockedHead(tx: Tx, endpointId: string): Promise<{ endpoint: EndpointRow | undefined; head: DeliveryRow | undefined }> {
    const endpoint = await tx.selectFrom('webhook_endpoints').select(ENDPOINT_COLUMNS).where('id', '=', endpointId)
      .forUpdate().executeTakeFirst();
    if (!endpoint?.enabled) return { endpoint, head: undefined };
    const head = await tx.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId)
      .where('status', '=', 'pending').orderBy('seq').limit(1).executeTakeFirst() as DeliveryRow | undefined;
    return { endpoint, head };
  }

  async lease(tx: Tx, deliveryId: string, until: Date): Promise<void> {
    await tx.updateTable('webhook_deliveries').set({ leased_until: until }).where('id', '=', deliveryId).execute();
  }

  /** Records an attempt's answer on a delivery still pending; the lease ends. */
  async recordAttempt(tx: Tx, deliveryId: string, attempt: AttemptRecord): Promise<void> {
    await tx.updateTable('webhook_deliveries').set({ ...attempt, leased_until: null, last_attempt_at: new Date() })
      .where('id', '=', deliveryId).where('status', '=', 'pending').execute();
  }

  // ---- modem events

  /**
   * Records a modem's state under its row lock; true when this call changed it and the event should be published.
   * A first record of "online" publishes nothing: it may be an IP change of a modem that was up all along
   * (announcements come only with a change, so a first "offline" is a drop); another instance inserting first wins.
   */
  async recordModemState(tx: Tx, imei: string, online: boolean): Promise<boolean> {
    const previous = await tx.selectFrom('webhook_modem_states').select('online').where('imei', '=', imei).forUpdate().executeTakeFirst();
    if (previous?.online === online) return false;
    if (previous) {
      await tx.updateTable('webhook_modem_states').set({ online }).where('imei', '=', imei).execute();
      return true;
    }
    const inserted = await tx.insertInto('webhook_modem_states').values({ imei, online })
      .onConflict((oc) => oc.column('imei').doNothing()).returning('imei').executeTakeFirst();
    return Boolean(inserted) && !online;
  }

  /** The unreleased ports on the modem of these customers. */
  async portsOnModem(tx: Tx, imei: string, userIds: string[]): Promise<Array<{ id: string; user_id: string; name: string }>> {
    if (!userIds.length) return [];
    return tx.selectFrom('ports').innerJoin('modems', 'modems.id', 'ports.modem_id')
      .select(['ports.id', 'ports.user_id', 'ports.name']).where('modems.imei', '=', imei)
      .where('ports.user_id', 'in', userIds).where('ports.status', '<>', 'released').execute();
  }
}
