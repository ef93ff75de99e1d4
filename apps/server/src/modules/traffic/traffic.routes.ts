import { trafficQuerySchema, trafficQuotaResponseSchema, trafficResponseSchema } from '@cellport/shared/schemas/traffic';
import type { App, AppContext } from '../../context.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { requestLanguage } from '../../lib/request-language.js';
import { trafficCsv } from './traffic-csv.js';
import { trafficReport, trafficRows } from './traffic-report.js';
import type { TrafficRepository } from './traffic.repository.js';

/**
 * Traffic: per-port series for the customer, CSV export, usage against quotas. Proxy hosts report traffic over the
 * host protocol only (hosts.server.ts → traffic-samples.ts, TrafficRepository.ingestReport): the HTTP ingest route
 * that once stood here had no production caller and its own, looser limits (issue 26, item 12).
 */
export function registerTraffic(app: App, ctx: AppContext, { trafficRepository: repository }: { trafficRepository: TrafficRepository }): void {

  app.get('/api/v1/traffic', {
    onRequest: requireUser, schema: { tags: ['traffic'], querystring: trafficQuerySchema, response: { 200: trafficResponseSchema } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return trafficReport(repository, currentUser(request).userId, request.query, requestLanguage(request));
  });

  app.get('/api/v1/traffic/quota', {
    onRequest: requireUser, schema: { tags: ['traffic'], response: { 200: trafficQuotaResponseSchema } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { data: await repository.quotas(currentUser(request).userId, requestLanguage(request)) };
  });

  app.get('/api/v1/traffic.csv', {
    onRequest: requireUser, schema: { tags: ['traffic'], querystring: trafficQuerySchema },
  }, async (request, reply) => {
    const rows = await trafficRows(repository, currentUser(request).userId, request.query, requestLanguage(request));
    const day = (iso: string) => iso.slice(0, 10);
    reply.header('content-type', 'text/csv; charset=utf-8').header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="traffic-${day(request.query.from)}-${day(request.query.to)}.csv"`);
    return trafficCsv(rows);
  });
}
