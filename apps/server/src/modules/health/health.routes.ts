import { livenessResponseSchema, readinessResponseSchema } from '@cellport/shared/schemas/health';
import { sql } from 'kysely';
import type { App, AppContext } from '../../context.js';
import { registerCallerIp } from './caller-ip.routes.js';

export function registerHealth(app: App, { db }: AppContext): void {
  // Liveness: the process answers. Never touches the database.
  app.get('/healthz', { schema: { response: { 200: livenessResponseSchema } } }, async () => ({ status: 'ok' as const }));
  // Readiness: the database answers too.
  app.get('/readyz', { schema: { response: { 200: readinessResponseSchema, 503: readinessResponseSchema } } },
    async (_request, reply) => {
      try {
        await sql`select 1`.execute(db);
        return { status: 'ready' };
      } catch {
        return reply.status(503).send({ status: 'database unavailable' });
      }
    });
  // What is my IP: the test target of the curl lines on Your Proxies.
  registerCallerIp(app);
}
