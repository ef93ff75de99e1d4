import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface WebhookEndpointsTable {
  id: Generated<string>;
  user_id: string;
  url: string;
  event_types: string[];
  /** The `whsec_…` secret, AES-256-GCM under a key derived from the server's secret (webhook-secrets.ts). */
  secret_enc: string;
  enabled: Generated<boolean>;
  disabled_reason: string | null;
  disabled_at: Date | null;
  created_at: CreatedAt;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  seq: ColumnType<string, never, never>;
  endpoint_id: string;
  user_id: string;
  /** Standard Webhooks `webhook-id`: the same for every endpoint an event goes to, and for a redelivery. */
  msg_id: string;
  event_type: string;
  payload: ColumnType<Record<string, unknown>, string, string>;
  status: Generated<'pending' | 'succeeded' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  leased_until: Date | null;
  last_attempt_at: Date | null;
  response_status: number | null;
  latency_ms: number | null;
  last_error: string | null;
  created_at: CreatedAt;
}

export interface WebhookModemStatesTable { imei: string; online: boolean }

export interface WebhooksTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_modem_states: WebhookModemStatesTable;
}
