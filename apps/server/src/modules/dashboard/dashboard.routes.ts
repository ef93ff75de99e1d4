import { dashboardResponseSchema } from '@cellport/shared/schemas/dashboard';
import { sql } from 'kysely';
import type { Services } from '../../composition.js';
import type { App, AppContext } from '../../context.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { readerLanguage } from '../catalog/request-language.js';

/** Ports whose term ends within this many days count as expiring soon. */
const EXPIRING_DAYS = 3;

/** GET /api/v1/dashboard: what the dashboard page shows at a glance. */
export function registerDashboard(app: App, ctx: AppContext, services: Services): void {
  const notifications = services.notificationsRepository;
  const traffic = services.trafficRepository;

  app.get('/api/v1/dashboard', {
    onRequest: requireUser, schema: { tags: ['dashboard'], response: { 200: dashboardResponseSchema } },
  }, async (request, reply) => {
    const { userId } = currentUser(request);
    const active = ctx.db.selectFrom('ports').where('user_id', '=', userId).where('status', '=', 'active')
      .where('expires_at', '>', sql<Date>`now()`);
    const [count, expiring, traffic24h, recent] = await Promise.all([
      active.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
      active.select(['id', 'name', 'expires_at'])
        .where('expires_at', '<=', sql<Date>`now() + make_interval(days => ${EXPIRING_DAYS})`)
        .orderBy('expires_at').limit(20).execute(),
      traffic.totalSince(userId, new Date(Date.now() - 86_400_000)),
      readerLanguage(request, ctx.db, userId).then((lng) => notifications.latest(userId, 5, lng)),
    ]);
    reply.header('cache-control', 'no-store');
    return {
      activePorts: Number(count.n),
      expiringSoon: expiring.map((p) => ({ _id: p.id, modem_name: p.name, expiresAt: p.expires_at.toISOString() })),
      traffic24h,
      recentNotifications: recent,
    };
  });
}
