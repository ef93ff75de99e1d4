import { createHmac, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Tx } from '../../db/database.js';
import type { TelegramGateway } from '../../integrations/telegram/telegram-gateway.js';
import { BUS_RESYNC, type Bus } from '../../lib/bus.js';
import type { WebhookSecretBox } from '../webhooks/index.js';
import type { BotState, TelegramService } from './telegram.service.js';
import type { StoredTelegramSettings, TelegramRepository } from './telegram.repository.js';
import { TOPICS } from '../../lib/bus-topics.js';

/** Bus topic: the console changed the bot's settings; every instance rebuilds its bot. */
export const TELEGRAM_SETTINGS_CHANGED = TOPICS.telegramSettingsChanged;
export const TELEGRAM_WEBHOOK_PATH = '/api/v1/telegram/webhook';

/** The poller's lease: renewed every 10 s, so an instance that died is replaced within 30 s. */
const LEASE_SECONDS = 30;
const LEASE_RENEW_MS = 10_000;

export interface TelegramSettings { token: string | null; mode: 'polling' | 'webhook'; fromConsole: boolean }
/** The console's change: a token or mode, or null to clear the console's value (back to the environment's). */
export interface TelegramSettingsPatch { token?: string | null; mode?: 'polling' | 'webhook' | null }
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
    config: Config; repo: TelegramRepository; bus: Bus; log: FastifyBaseLogger; service: TelegramService; box: WebhookSecretBox;
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
    const { config, repo, box } = this.deps;
    const stored = await repo.settings();
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

  /**
   * The console's change of the token (sealed, never stored in the clear) or mode, in one transaction with `record`
   * (its audit entry, told what was and what is stored); after the commit this instance and (NOTIFY) every other one
   * rebuild their bot.
   */
  async changeSettings(
    patch: TelegramSettingsPatch, adminId: string,
    record: (tx: Tx, before: StoredTelegramSettings, next: StoredTelegramSettings) => Promise<void>,
  ): Promise<void> {
    const { repo, box } = this.deps;
    await repo.transaction(async (tx) => {
      const before = await repo.settings(tx);
      const next: StoredTelegramSettings = { ...before };
      if (patch.token !== undefined) { if (patch.token === null) delete next.token; else next.token = box.seal(patch.token); }
      if (patch.mode !== undefined) { if (patch.mode === null) delete next.mode; else next.mode = patch.mode; }
      await repo.saveSettings(tx, next, adminId);
      await record(tx, before, next);
    });
    await this.deps.bus.publish(TELEGRAM_SETTINGS_CHANGED, {});
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
      await this.deps.repo.releaseLease(this.holder);
    }
    this.gateway = null;
  }

  /** Takes or renews the lease; polls while holding it. */
  private async tick(): Promise<void> {
    const gateway = this.gateway;
    if (!gateway || gateway.sandbox) return;
    const held = await this.deps.repo.takeLease(this.holder, LEASE_SECONDS);
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
