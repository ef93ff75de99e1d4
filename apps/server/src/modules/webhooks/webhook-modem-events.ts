import type { AppContext } from '../../context.js';
import { publishWebhookEvent } from './webhook-events.js';
import { TOPICS } from '../../lib/bus-topics.js';

interface ModemStatusMessage { userIds?: string[]; IMEI?: string; online?: unknown }

/**
 * modem.down / modem.up from the hosts module's announcements (TOPICS.modemStatus with `online`, sent when a heartbeat,
 * the silence sweep or a disconnect changed a modem). Every instance hears the message; the upsert that actually
 * changes `webhook_modem_states` (under its row lock) is the one that publishes, so the event goes out once. Not in the writing transaction: a crash between the modem's update and
 * this upsert loses that one event.
 */
export function listenForModemChanges(ctx: AppContext): () => void {
  // One modem's changes are judged one after another, in the order announced: a "down" and an "up" racing each
  // other's first insert would otherwise lose the second (neither sees the other's uncommitted row).
  const queues = new Map<string, Promise<void>>();
  return ctx.bus.on(TOPICS.modemStatus, (message: ModemStatusMessage) => {
    const { IMEI: imei, online } = message;
    if (typeof online !== 'boolean' || !imei) return;
    const next = (queues.get(imei) ?? Promise.resolve())
      .then(() => changed(ctx, imei, online, message.userIds ?? []))
      .catch((err: unknown) => { ctx.log.error({ err }, 'modem webhook event not published'); });
    queues.set(imei, next);
    return next.finally(() => { if (queues.get(imei) === next) queues.delete(imei); });
  });
}

async function changed(ctx: AppContext, imei: string, online: boolean, userIds: string[]): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    const previous = await tx.selectFrom('webhook_modem_states').select('online').where('imei', '=', imei).forUpdate().executeTakeFirst();
    if (previous?.online === online) return;
    if (previous) {
      await tx.updateTable('webhook_modem_states').set({ online }).where('imei', '=', imei).execute();
    } else {
      const inserted = await tx.insertInto('webhook_modem_states').values({ imei, online })
        .onConflict((oc) => oc.column('imei').doNothing()).returning('imei').executeTakeFirst();
      // Another instance recorded it first; or the modem's first announcement is "online", which may be an IP change
      // of a modem that was up all along (announcements come only with a change, so a first "offline" is a drop).
      if (!inserted || online) return;
    }
    const ports = userIds.length ? await tx.selectFrom('ports').innerJoin('modems', 'modems.id', 'ports.modem_id')
      .select(['ports.id', 'ports.user_id', 'ports.name']).where('modems.imei', '=', imei)
      .where('ports.user_id', 'in', userIds).where('ports.status', '<>', 'released').execute() : [];
    const byUser = new Map<string, Array<{ id: string; name: string }>>();
    for (const p of ports) byUser.set(p.user_id, [...(byUser.get(p.user_id) ?? []), { id: p.id, name: p.name }]);
    for (const [userId, list] of byUser) {
      await publishWebhookEvent(tx, userId, online ? 'modem.up' : 'modem.down', { imei, ports: list });
    }
  });
}
