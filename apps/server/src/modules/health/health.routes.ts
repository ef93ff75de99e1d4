import { livenessResponseSchema, readinessResponseSchema } from '@cellport/shared/schemas/health';
import type { App } from '../../context.js';
import { registerCallerIp } from './caller-ip.routes.js';
import type { HealthRepository } from './health.repository.js';

export function registerHealth(app: App, { health }: { health: HealthRepository }): void {
  // Liveness: the process answers. Never touches the database.
  app.get('/healthz', { schema: { response: { 200: livenessResponseSchema } } }, async () => ({ status: 'ok' as const }));
  // Readiness: the database answers too.
  app.get('/readyz', { schema: { response: { 200: readinessResponseSchema, 503: readinessResponseSchema } } },
    async (_request, reply) => {
      try {
        await health.ping();
        return { status: 'ready' };
      } catch {
        return reply.status(503).send({ status: 'database unavailable' });
      }
    });
  // What is my IP: the test target of the curl lines on Your Proxies.
  registerCallerIp(app);
}
