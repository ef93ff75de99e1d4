import type { AppContext } from '../../context.js';
import { TOPICS } from '../../lib/bus-topics.js';
import { publishWebhookEvent, type WebhooksRepository } from './webhooks.repository.js';

interface ModemStatusMessage { userIds?: string[]; IMEI?: string; online?: unknown }

/**
 * modem.down / modem.up from the hosts module's announcements (TOPICS.modemStatus with `online`, sent when a heartbeat,
 * the silence sweep or a disconnect changed a modem). Every instance hears the message; the upsert that actually
 * changes `webhook_modem_states` (under its row lock) is the one that publishes, so the event goes out once. Not in the writing transaction: a crash between the modem's update and
 * this upsert loses that one event.
 */
export function listenForModemChanges(ctx: Pick<AppContext, 'bus' | 'log'>, repo: WebhooksRepository): () => void {
  // One modem's changes are judged one after another, in the order announced: a "down" and an "up" racing each
  // other's first insert would otherwise lose the second (neither sees the other's uncommitted row).
  const queues = new Map<string, Promise<void>>();
  return ctx.bus.on(TOPICS.modemStatus, (message: ModemStatusMessage) => {
    const { IMEI: imei, online } = message;
    if (typeof online !== 'boolean' || !imei) return;
    const next = (queues.get(imei) ?? Promise.resolve())
      .then(() => changed(repo, imei, online, message.userIds ?? []))
      .catch((err: unknown) => { ctx.log.error({ err }, 'modem webhook event not published'); });
    queues.set(imei, next);
    return next.finally(() => { if (queues.get(imei) === next) queues.delete(imei); });
  });
}

async function changed(repo: WebhooksRepository, imei: string, online: boolean, userIds: string[]): Promise<void> {
  await repo.transaction(async (tx) => {
    // Another instance recorded it first; or the modem's first announcement is "online", which may be an IP change
    // of a modem that was up all along (announcements come only with a change, so a first "offline" is a drop).
    if (!await repo.recordModemState(tx, imei, online)) return;
    const ports = await repo.portsOnModem(tx, imei, userIds);
    const byUser = new Map<string, Array<{ id: string; name: string }>>();
    for (const p of ports) byUser.set(p.user_id, [...(byUser.get(p.user_id) ?? []), { id: p.id, name: p.name }]);
    for (const [userId, list] of byUser) {
      await publishWebhookEvent(tx, userId, online ? 'modem.up' : 'modem.down', { imei, ports: list });
    }
  });
}
