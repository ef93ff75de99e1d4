import { z } from 'zod';
import { rotateReplySchema } from '@cellport/shared/schemas/host-protocol';
import { APPLY_STATUSES } from '@cellport/shared/schemas/catalog';
import { TARIFF_ACTIONS } from '@cellport/shared/schemas/realtime';

/**
 * Every topic of the bus (lib/bus.ts), declared once with its payload's schema (issue 29, item 2; decision 042).
 * Publishing checks the payload (a wrong shape is a bug: the publish fails), and a message from another instance
 * (PostgreSQL NOTIFY, decision 012) is checked again before any handler sees it (a wrong one is dropped and logged),
 * so an instance running older code cannot hand a handler something it does not expect. Code names a topic as
 * `TOPICS.modemStatus`, never by its string: a test counts the strings outside this file (bus-topics.test.ts).
 * A payload must fit a NOTIFY (under 8000 bytes as JSON).
 */
export interface Topic<N extends string = string, S extends z.ZodType = z.ZodType> {
  readonly name: N;
  readonly payload: S;
  /** Heard on this instance only (never sent through NOTIFY). */
  readonly local?: boolean;
}

const topic = <N extends string, S extends z.ZodType>(name: N, payload: S, local = false): Topic<N, S> => ({ name, payload, local });

const nothing = z.object({});

export const TOPICS = {
  /**
   * A modem's rotation state, address or availability changed: its customers' dashboards update (realtime), and
   * `online` (sent by the hosts module when a heartbeat, the silence sweep or a disconnect changed it) drives the
   * modem.down / modem.up webhooks.
   */
  modemStatus: topic('modem:status', z.object({
    userIds: z.array(z.string()),
    IMEI: z.string(),
    applyStatus: z.enum(APPLY_STATUSES),
    ext_ip: z.string().optional(),
    online: z.boolean().optional(),
  })),
  /** A payment completed: the customer's dashboard adds it (the payment as GET /payments answers it). */
  paymentCompleted: topic('payment:completed', z.object({ userId: z.string(), payment: z.unknown() })),
  /** A customer's balances changed; `account` when the publisher already has the realtime 'balance' payload. */
  balanceChanged: topic('balance:changed', z.object({ userId: z.string(), account: z.unknown().optional() })),
  /** Sessions ended (sign-out, a password reset) or every session of a deactivated account (`userId`). */
  sessionRevoked: topic('session:revoked', z.object({ ids: z.array(z.string()).optional(), userId: z.string().optional() })),
  /** A tariff was created, changed or deleted (server-side listeners). */
  tariffChanged: topic('tariff:changed', z.object({ tariffId: z.string(), action: z.enum(['created', 'updated', 'deleted']) })),
  /** The realtime 'tariff' event every customer's dashboard applies (an inactive tariff is a 'delete'). */
  tariffRealtime: topic('tariff', z.object({ action: z.enum(TARIFF_ACTIONS), tariff: z.unknown() })),
  /** The operator changed the settings table: every instance's cache reads it again. */
  settingsChanged: topic('settings:changed', nothing),
  /** The Telegram bot's token or mode changed in the console: every instance's bot reloads. */
  telegramSettingsChanged: topic('telegram:settings', nothing),
  /** An API key was revoked: every instance drops it from its cache. */
  apiKeyRevoked: topic('api-key:revoked', z.object({ hash: z.string() })),
  /** A support ticket changed: the customer's dashboard updates (the realtime 'support_ticket' event). */
  supportTicket: topic('support:ticket', z.object({ userId: z.string(), event: z.unknown() })),
  /** A host's agent connected to `instance`: another instance holding an older socket of that host closes it. */
  hostConnected: topic('host:connected', z.object({ hostId: z.string(), instance: z.string() })),
  /**
   * A host's agent reported serving another desired-state version than before on that connection (recorded in
   * hosts.state_version and served_ports first): "what a site sees" waits for its port's settings (issue 30).
   */
  hostServes: topic('host:serves', z.object({ hostId: z.string(), version: z.string() })),
  /** Rotate a modem: the instance holding the host's socket claims the command and sends it to the agent. */
  hostRotate: topic('host:rotate', z.object({ commandId: z.string(), hostId: z.string(), imei: z.string() })),
  hostRotateClaimed: topic('host:rotate:claimed', z.object({ commandId: z.string() })),
  hostRotateStatus: topic('host:rotate:status', z.object({ commandId: z.string(), status: z.enum(['rotating', 'applying']) })),
  hostRotateReply: topic('host:rotate:reply', z.object({ commandId: z.string(), reply: rotateReplySchema })),
  /**
   * This instance's LISTEN connection came back after a loss: messages from other instances in the gap were
   * missed, so whoever caches on the strength of the bus (sessions, API keys, settings) starts afresh.
   */
  busResync: topic('bus:resync', nothing, true),
} as const;

export type AnyTopic = (typeof TOPICS)[keyof typeof TOPICS];
export type TopicName = AnyTopic['name'];
/** A topic, or (during the move to TOPICS, for code written before it) its declared name. */
export type TopicRef = AnyTopic | TopicName;
type TopicOf<R extends TopicRef> = R extends AnyTopic ? R : Extract<AnyTopic, { name: R }>;
/** What a publisher passes. */
export type TopicInput<R extends TopicRef> = z.input<TopicOf<R>['payload']>;
/** What a handler receives: the payload as its schema parsed it. */
export type TopicPayload<R extends TopicRef> = z.output<TopicOf<R>['payload']>;

const byName = new Map<string, AnyTopic>(Object.values(TOPICS).map((t) => [t.name, t]));

/** The declared topic of a name, or undefined (a message from another instance may name anything). */
export function topicNamed(name: string): AnyTopic | undefined { return byName.get(name); }

export function topicOf(ref: TopicRef): AnyTopic {
  return typeof ref === 'string' ? byName.get(ref)! : ref;
}
