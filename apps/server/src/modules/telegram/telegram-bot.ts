import { createHmac, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { TelegramGateway } from '../../integrations/telegram/telegram-gateway.js';
import { BUS_RESYNC, type Bus } from '../../lib/bus.js';
import type { WebhookSecretBox } from '../webhooks/index.js';
import type { BotState, TelegramService } from './telegram.service.js';
import { TOPICS } from '../../lib/bus-topics.js';

/** The settings row the console writes: the token sealed (never stored or shown in the clear), and the mode. */
export const TELEGRAM_SETTINGS_KEY = 'telegram';
export interface StoredTelegramSettings { token?: string; mode?: 'polling' | 'webhook' }
/** Bus topic: the console changed the bot's settings; every instance rebuilds its bot. */
export const TELEGRAM_SETTINGS_CHANGED = TOPICS.telegramSettingsChanged;
export const TELEGRAM_WEBHOOK_PATH = '/api/v1/telegram/webhook';

/** The poller's lease: renewed every 10 s, so an instance that died is replaced within 30 s. */
const LEASE_SECONDS = 30;
const LEASE_RENEW_MS = 10_000;

export interface TelegramSettings { token: string | null; mode: 'polling' | 'webhook'; fromConsole: boolean }
/** Builds the adapter for a token (grammy), or for none (the sandbox; null in production): chosen by the composition root. */
export type TelegramGatewayFactory = (token: string | null) => TelegramGateway | null;

/**
 * The bot's lifecycle on this instance. The token and mode come from the console (settings row 'telegram') or
 * TELEGRAM_BOT_TOKEN / TELEGRAM_MODE; without a token the sandbox stands in outside production (in production the
 * bot is simply unavailable).
 *
 * Long polling by exactly one instance: Telegram answers 409 to a second getUpdates consumer. A one-row lease
 * (`telegram_poller`) is taken with a conditional upsert (free, expired, or already ours) and renewed every 10 s;
 * the instance holding it polls, the others only send. An instance that dies stops renewing and another takes over
 * within 30 s; one that loses the lease stops polling at its next renewal. Sending works from any instance.
 * Webhook mode: every instance sets the same webhook (idempotent) and handles the updates it is sent.
 */
export class TelegramBot {
  private gateway: TelegramGateway | null = null;
  private settings: TelegramSettings = { token: null, mode: 'polling', fromConsole: false };
  private readonly holder = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private queue: Promise<void> = Promise.resolve();
  private stopped = true;

  constructor(private readonly deps: {
    config: Config; db: Database; bus: Bus; log: FastifyBaseLogger; service: TelegramService; box: WebhookSecretBox;
    gateway: TelegramGatewayFactory;
  }) {
    deps.bus.on(TELEGRAM_SETTINGS_CHANGED, () => { if (!this.stopped) this.reload(); });
    deps.bus.on(BUS_RESYNC, () => { if (!this.stopped) this.reload(); });
  }

  /** Builds the bot from the settings and starts receiving; resolves once that has been tried (errors logged). */
  start(): Promise<void> {
    this.stopped = false;
    return this.serial(() => this.up());
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.serial(() => this.down());
  }

  reload(): Promise<void> {
    return this.serial(async () => { await this.down(); if (!this.stopped) await this.up(); });
  }

  /** Resolves when the starts, stops and reloads asked for so far have finished (the webhook is set, polling runs). */
  settled(): Promise<void> { return this.queue; }

  current(): TelegramGateway | null { return this.gateway; }

  async state(): Promise<BotState> {
    const gateway = this.gateway;
    if (!gateway) return { available: false, sandbox: false, username: null };
    const username = await gateway.username().catch((err: unknown) => {
      this.deps.log.warn({ err }, 'telegram: getMe failed');
      return null;
    });
    return { available: true, sandbox: gateway.sandbox, username };
  }

  /** The secret Telegram repeats in X-Telegram-Bot-Api-Secret-Token on webhook calls. */
  webhookSecret(): string | null {
    if (!this.settings.token) return null;
    return createHmac('sha256', this.deps.config.secret).update(`telegram-webhook:${this.settings.token}`).digest('base64url');
  }

  async handleWebhook(update: unknown): Promise<void> {
    const gateway = this.gateway;
    if (!gateway || this.settings.mode !== 'webhook') return;
    await gateway.handleUpdate(update, (m) => this.deps.service.answer(m));
  }

  async readSettings(): Promise<TelegramSettings> {
    const { config, db, box } = this.deps;
    const row = await db.selectFrom('settings').select('value').where('key', '=', TELEGRAM_SETTINGS_KEY).executeTakeFirst();
    const stored = (row?.value ?? {}) as StoredTelegramSettings;
    let token: string | null = null;
    if (stored.token) {
      try { token = box.open(stored.token); } catch { this.deps.log.error('telegram: the stored bot token cannot be opened (SESSION_SECRET changed?)'); }
    }
    return {
      token: token ?? config.TELEGRAM_BOT_TOKEN ?? null,
      mode: stored.mode ?? config.TELEGRAM_MODE,
      fromConsole: Boolean(token),
    };
  }

  private serial(work: () => Promise<void>): Promise<void> {
    const next = this.queue.then(work).catch((err: unknown) => { this.deps.log.error({ err }, 'telegram: starting or stopping the bot failed'); });
    this.queue = next;
    return next;
  }

  private async up(): Promise<void> {
    const { config } = this.deps;
    this.settings = await this.readSettings();
    this.gateway = this.deps.gateway(this.settings.token);
    if (!this.settings.token || !this.gateway) return;
    if (this.settings.mode === 'webhook') {
      await this.gateway.setWebhook(`${config.publicUrl}${TELEGRAM_WEBHOOK_PATH}`, this.webhookSecret()!);
      return;
    }
    await this.tick();
    this.timer = setInterval(() => { void this.serial(() => this.tick()); }, LEASE_RENEW_MS);
    this.timer.unref();
  }

  private async down(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    const gateway = this.gateway;
    if (this.polling && gateway) {
      this.polling = false;
      await gateway.stopPolling();
      await this.deps.db.deleteFrom('telegram_poller').where('holder', '=', this.holder).execute();
    }
    this.gateway = null;
  }

  /** Takes or renews the lease; polls while holding it. */
  private async tick(): Promise<void> {
    const gateway = this.gateway;
    if (!gateway || gateway.sandbox) return;
    const held = await this.deps.db.insertInto('telegram_poller')
      .values({ id: 1, holder: this.holder, leased_until: sql<Date>`now() + make_interval(secs => ${LEASE_SECONDS})` })
      .onConflict((oc) => oc.column('id').doUpdateSet({ holder: this.holder, leased_until: sql<Date>`excluded.leased_until` })
        .where((eb) => eb.or([eb('telegram_poller.holder', '=', this.holder), eb('telegram_poller.leased_until', '<', sql<Date>`now()`)])))
      .returning('holder').executeTakeFirst();
    if (held && !this.polling) {
      this.polling = true;
      await gateway.startPolling((m) => this.deps.service.answer(m), (err) => {
        this.polling = false;
        this.deps.log.error({ err }, 'telegram: long polling stopped (retried at the next lease renewal)');
      }).catch((err: unknown) => {
        this.polling = false;
        throw err;
      });
      this.deps.log.info('telegram: this instance long-polls the bot');
    } else if (!held && this.polling) {
      this.polling = false;
      await gateway.stopPolling();
    }
  }
}
