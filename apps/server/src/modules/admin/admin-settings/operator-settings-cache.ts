import type { AppContext } from '../../../context.js';
import { BUS_RESYNC } from '../../../lib/bus.js';
import { type OperatorOverrides, readOverrides } from './operator-settings.js';

/** Bus topic announced after a console change of the settings table commits; every instance drops its copy. */
export const SETTINGS_CHANGED = 'settings:changed';
/** A safety net only: if a notification were lost (a reconnecting LISTEN), an instance still catches up within a minute. */
const MAX_AGE_MS = 60_000;

/**
 * The operator's overrides (settings table), read once and kept until the console changes them. Hot paths (PayPal
 * checkout, every IPN, GET /api/v1/settings) read this instead of the table.
 */
export class OperatorSettingsCache {
  private current: { value: Promise<OperatorOverrides>; at: number } | null = null;

  constructor(private readonly ctx: AppContext) {
    ctx.bus.on(SETTINGS_CHANGED, () => { this.current = null; });
    ctx.bus.on(BUS_RESYNC, () => { this.current = null; });
  }

  overrides(): Promise<OperatorOverrides> {
    if (this.current && Date.now() - this.current.at < MAX_AGE_MS) return this.current.value;
    const entry = { value: readOverrides(this.ctx.db), at: Date.now() };
    // A failed read is not remembered: the next caller asks the database again.
    entry.value.catch(() => { if (this.current === entry) this.current = null; });
    this.current = entry;
    return entry.value;
  }

  /** Call after the change has committed: this instance and (over PostgreSQL NOTIFY) all others reload. */
  async changed(): Promise<void> {
    this.current = null;
    await this.ctx.bus.publish(SETTINGS_CHANGED, {});
  }
}

const caches = new WeakMap<AppContext, OperatorSettingsCache>();

export function operatorSettings(ctx: AppContext): OperatorSettingsCache {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new OperatorSettingsCache(ctx);
    caches.set(ctx, cache);
  }
  return cache;
}

/**
 * The PayPal account that must receive the money: the console's override when set, else PAYPAL_RECEIVER_EMAIL (or the
 * sandbox receiver). The checkout form's `business`, the IPN receiver check and GET /api/v1/settings all use this.
 */
export const payPalReceiver = (overrides: OperatorOverrides, ctx: AppContext): string =>
  overrides.paypalReceiverEmail ?? ctx.config.paypal.receiverEmail;

export async function effectivePayPalReceiver(ctx: AppContext): Promise<string> {
  return payPalReceiver(await operatorSettings(ctx).overrides(), ctx);
}
