import type { Config } from '../config.js';
import { BUS_RESYNC, type Bus } from './bus.js';
import { TOPICS } from './bus-topics.js';

/**
 * What the operator overrode in the console (modules/settings keeps the table; its keys are OPERATOR_SETTING_KEYS
 * there). The type lives beside the cache, which the AppContext carries, so context.ts needs no domain's file.
 */
export interface OperatorOverrides {
  documentationUrl?: string;
  paypalReceiverEmail?: string;
  /** How long a port's modem may be offline before the port moves to another modem (issue 15, item 6). */
  replacementAfterMinutes?: number;
  sellerName?: string;
  sellerAddress?: string;
  sellerTaxId?: string;
}

/** Bus topic announced after a console change of the settings table commits; every instance drops its copy. */
export const SETTINGS_CHANGED = TOPICS.settingsChanged;
/** A safety net only: if a notification were lost (a reconnecting LISTEN), an instance still catches up within a minute. */
const MAX_AGE_MS = 60_000;

/**
 * The operator's overrides (settings table), read once and kept until the console changes them. Hot paths (PayPal
 * checkout, every IPN, GET /api/v1/settings) read this instead of the table. One per app, built by the composition
 * root (reading through the settings repository) and carried in the AppContext.
 */
export class OperatorSettingsCache {
  private current: { value: Promise<OperatorOverrides>; at: number } | null = null;

  constructor(private readonly load: () => Promise<OperatorOverrides>, private readonly bus: Bus) {
    bus.on(SETTINGS_CHANGED, () => { this.current = null; });
    bus.on(BUS_RESYNC, () => { this.current = null; });
  }

  overrides(): Promise<OperatorOverrides> {
    if (this.current && Date.now() - this.current.at < MAX_AGE_MS) return this.current.value;
    const entry = { value: this.load(), at: Date.now() };
    // A failed read is not remembered: the next caller asks the database again.
    entry.value.catch(() => { if (this.current === entry) this.current = null; });
    this.current = entry;
    return entry.value;
  }

  /** Call after the change has committed: this instance and (over PostgreSQL NOTIFY) all others reload. */
  async changed(): Promise<void> {
    this.current = null;
    await this.bus.publish(SETTINGS_CHANGED, {});
  }
}

/**
 * The PayPal account that must receive the money: the console's override when set, else PAYPAL_RECEIVER_EMAIL (or the
 * sandbox receiver). The checkout form's `business`, the IPN receiver check and GET /api/v1/settings all use this.
 */
export const payPalReceiver = (overrides: OperatorOverrides, ctx: { config: Pick<Config, 'paypal'> }): string =>
  overrides.paypalReceiverEmail ?? ctx.config.paypal.receiverEmail;

/** Takes the AppContext (typed by what it reads, so this file does not import context.ts, which imports it). */
export async function effectivePayPalReceiver(ctx: { config: Pick<Config, 'paypal'>; operatorSettings: OperatorSettingsCache }): Promise<string> {
  return payPalReceiver(await ctx.operatorSettings.overrides(), ctx);
}
