import { createHash } from 'node:crypto';
import { FALLBACK_LANGUAGE, isLanguage } from '@cellport/shared';
import { microToDollars } from '@cellport/shared/schemas/payments';
import { AppError } from '../../lib/app-error.js';
import type { Tx } from '../../db/database.js';
import type { JobQueue } from '../../jobs/queue.js';
import { JOBS, type JobPayload } from '../../jobs/job-kinds.js';
import { portNameText, type NotificationsService } from '../notifications/index.js';
import { publishWebhookEvent } from '../webhooks/index.js';
import type { PurchasesRepository } from './purchases.repository.js';
import type { PurchasesService } from './purchases.service.js';

type TermPayload = JobPayload<typeof JOBS.portExpire>;


/**
 * A port's term: reminders 3 days and 1 day before expiry, auto-renew from the balance 24 h before, stop at
 * expiry, and return the modem to stock after the grace period. Each handler first checks that the port is still
 * in the term it was scheduled for (same expiry) — otherwise it was renewed and the job has nothing to do.
 */
export function registerPortLifecycleJobs(queue: JobQueue, deps: {
  repo: PurchasesRepository; purchases: PurchasesService; notifications: NotificationsService; graceDays: number;
  /** Whether a card subscription renews the port (subscriptions' renewedByCardSubscription, handed in by the root). */
  renewedByCardSubscription: (tx: Tx, portId: string) => Promise<boolean>;
}): void {
  const { repo, purchases, notifications, graceDays, renewedByCardSubscription } = deps;

  const lockTerm = async (tx: Tx, p: TermPayload) => {
    const port = await repo.lockTerm(tx, p.portId);
    if (!port || port.expires_at.toISOString() !== p.expiresAt) return null;
    return port;
  };
  const date = (d: Date) => d.toISOString().slice(0, 10);

  queue.handle(JOBS.portRemind, async (tx, p) => {
    const port = await lockTerm(tx, p);
    if (!port || port.status !== 'active') return;
    await publishWebhookEvent(tx, port.user_id, 'port.expiring_soon', {
      port: { id: port.id, name: port.name }, expiresAt: port.expires_at.toISOString(), daysLeft: p.days ?? null, autoRenew: port.auto_renew,
    });
    if (port.auto_renew) return;
    await notifications.notify(port.user_id, 'other', p.days === 3 ? 'expiry_reminder_3d' : 'expiry_reminder_1d',
      { name: portNameText(port), date: date(port.expires_at) }, tx);
  });

  queue.handle(JOBS.portAutorenew, async (tx, p) => {
    const port = await lockTerm(tx, p);
    if (!port || port.status !== 'active' || !port.auto_renew) return;
    // A card subscription renews this port when its period ends: the balance must not pay for the same days too.
    if (await renewedByCardSubscription(tx, port.id)) return;
    const lng = isLanguage(port.language) ? port.language : FALLBACK_LANGUAGE;
    // A savepoint: a short balance rolls back only the renewal, and the job still records its notification.
    await repo.savepoint(tx, 'autorenew');
    try {
      // The payment id comes from the job's own key, so the renewal can never be booked twice for this term.
      const paymentId = uuidFrom(`autorenew:${p.portId}:${p.expiresAt}`);
      const result = await purchases.renewWithin(tx, port.user_id, { basket: { [port.id]: { periods: 1 } } }, lng, paymentId, 'auto-renewal');
      await repo.releaseSavepoint(tx, 'autorenew');
      const renewed = result.data.modems[0];
      await notifications.notify(port.user_id, 'payment', 'auto_renew_completed', {
        name: portNameText(port), amount: microToDollars(BigInt(result.data.payment.amount)), date: renewed ? renewed.expiresAt.slice(0, 10) : '',
      }, tx);
    } catch (err) {
      await repo.rollbackToSavepoint(tx, 'autorenew');
      if (!(err instanceof AppError) || err.code !== 'INSUFFICIENT_FUNDS') throw err;
      const price = await repo.tariffPrice(tx, port.tariff_id);
      await notifications.notify(port.user_id, 'payment', 'auto_renew_short_balance', {
        name: portNameText(port), amount: microToDollars(price), date: date(port.expires_at),
      }, tx);
      await publishWebhookEvent(tx, port.user_id, 'balance.low', {
        reason: 'auto_renew', port: { id: port.id, name: port.name }, needed: microToDollars(price), currency: 'USD',
        expiresAt: port.expires_at.toISOString(),
      });
    }
  });

  queue.handle(JOBS.portExpire, async (tx, p, now) => {
    const port = await lockTerm(tx, p);
    if (!port || port.status !== 'active' || port.expires_at.getTime() > now.getTime()) return;
    await repo.expirePort(tx, port.id);
    await notifications.notify(port.user_id, 'other', 'port_expired', { name: portNameText(port), graceDays }, tx);
    await publishWebhookEvent(tx, port.user_id, 'port.expired', {
      port: { id: port.id, name: port.name }, expiredAt: port.expires_at.toISOString(), graceDays,
    });
  });

  queue.handle(JOBS.portRelease, async (tx, p, now) => {
    const port = await lockTerm(tx, p);
    if (!port || port.status === 'released' || port.expires_at.getTime() > now.getTime()) return;
    await repo.releasePort(tx, port.id, port.modem_id);
    await notifications.notify(port.user_id, 'other', 'port_released', { name: portNameText(port) }, tx);
  });
}

/** A deterministic UUID (v4 layout) from a string: the same job term always maps to the same payment id. */
function uuidFrom(text: string): string {
  const h = createHashHex(text);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
const createHashHex = (text: string) => createHash('sha256').update(text).digest('hex');
