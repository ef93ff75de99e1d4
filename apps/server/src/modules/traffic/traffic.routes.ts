import {
  TRAFFIC_LIMITS, trafficIngestRequestSchema, trafficIngestResponseSchema, trafficQuerySchema, trafficQuotaResponseSchema,
  trafficResponseSchema,
} from '@cellport/shared/schemas/traffic';
import { errorResponseSchema } from '@cellport/shared/schemas/auth';
import type { Services } from '../../composition.js';
import type { App, AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { hostForKey } from './host-keys.js';
import { recordQuotaCrossings } from './port-quota.js';
import { trafficCsv } from './traffic-csv.js';
import { trafficReport, trafficRows } from './traffic-report.js';

const MAX_BYTES = 9_223_372_036_854_775_807n;
/** Hosts may report the interval in progress, never one further ahead. */
const FUTURE_SLACK_MS = 60 * 60_000;

/** Traffic: ingest from proxy hosts (host key), per-port series for the customer, CSV export, usage against quotas. */
export function registerTraffic(app: App, ctx: AppContext, services: Services): void {
  const repository = services.trafficRepository;

  app.post('/api/v1/hosts/traffic', {
    config: { crossSite: true, rateLimit: { max: 600, timeWindow: '1 minute' } },
    bodyLimit: 512 * 1024,
    schema: {
      tags: ['hosts'], security: [{ bearerAuth: [] }], body: trafficIngestRequestSchema,
      response: { 200: trafficIngestResponseSchema, 401: errorResponseSchema },
    },
  }, async (request) => {
    const auth = request.headers.authorization;
    const hostId = auth?.startsWith('Bearer ') ? await hostForKey(ctx.db, auth.slice(7).trim()) : null;
    if (!hostId) throw new AppError('HOST_KEY_INVALID', 401);
    const alignMs = TRAFFIC_LIMITS.alignMinutes * 60_000;
    const latest = Date.now() + FUTURE_SLACK_MS;
    const samples = request.body.samples.map((s, i) => {
      const start = Date.parse(s.intervalStart);
      if (start % alignMs !== 0 || start > latest) {
        throw new AppError('VALIDATION', 400, `samples.${i}.intervalStart must be a past time aligned to ${TRAFFIC_LIMITS.alignMinutes} minutes`);
      }
      if (BigInt(s.bytesIn) > MAX_BYTES || BigInt(s.bytesOut) > MAX_BYTES) throw new AppError('VALIDATION', 400, `samples.${i}: byte count too large`);
      return { imei: s.IMEI, interval_start: new Date(start).toISOString(), bytes_in: s.bytesIn, bytes_out: s.bytesOut };
    });
    const { accepted, portIds } = await repository.ingest(hostId, samples, TRAFFIC_LIMITS.alignMinutes);
    // Quotas (decision 030), as for the host protocol's batches: a failure is caught by the port's next samples.
    await recordQuotaCrossings(ctx.db, services.notifications, portIds)
      .catch((err: unknown) => request.log.error({ err, hostId }, 'quota crossings not recorded'));
    return { accepted };
  });

  app.get('/api/v1/traffic', {
    onRequest: requireUser, schema: { tags: ['traffic'], querystring: trafficQuerySchema, response: { 200: trafficResponseSchema } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return trafficReport(repository, currentUser(request).userId, request.query);
  });

  app.get('/api/v1/traffic/quota', {
    onRequest: requireUser, schema: { tags: ['traffic'], response: { 200: trafficQuotaResponseSchema } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { data: await repository.quotas(currentUser(request).userId) };
  });

  app.get('/api/v1/traffic.csv', {
    onRequest: requireUser, schema: { tags: ['traffic'], querystring: trafficQuerySchema },
  }, async (request, reply) => {
    const rows = await trafficRows(repository, currentUser(request).userId, request.query);
    const day = (iso: string) => iso.slice(0, 10);
    reply.header('content-type', 'text/csv; charset=utf-8').header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="traffic-${day(request.query.from)}-${day(request.query.to)}.csv"`);
    return trafficCsv(rows);
  });
}
