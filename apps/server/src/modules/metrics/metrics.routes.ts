import { METRICS_CHALLENGE, metricsBearer } from '@cellport/node-common/metrics-auth';
import type { App, AppContext } from '../../context.js';
import type { ServerMetrics } from './server-metrics.js';

/** The path Prometheus scrapes: outside /api, so it is in no customer document (openapi.plugin.ts). */
export const METRICS_PATH = '/metrics';
/** Requests that matched no route (the web app's pages, unknown paths), as one route label. */
const NO_ROUTE = 'none';

/**
 * Prometheus metrics (issue 17, item 2), never public by default: GET /metrics answers 404 while METRICS_TOKEN is
 * unset, and with it set, 401 unless `Authorization: Bearer <METRICS_TOKEN>`. Also the hooks that feed the metrics:
 * each request's time by route pattern, and each polled GET answered from memory or not. Register before the
 * modules, so the hook sees their routes.
 */
export function registerMetrics(app: App, { config, database }: AppContext, metrics: ServerMetrics): void {
  // Callback style, no promise: this runs on every request.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? NO_ROUTE;
    const status = reply.statusCode;
    metrics.requestDone(request.method, route, status, reply.elapsedTime / 1000);
    // A polled route sends its version as an ETag (lib/poll-versions.ts): 304 means the poll was answered from the
    // versions kept in memory, anything else that its body was read from the database.
    if (request.method === 'GET' && route.startsWith('/api/') && reply.hasHeader('etag')) {
      metrics.pollServed('poll_version', route, status === 304);
    }
    done();
  });

  // Each statement's time, from Kysely's log hook (db/database.ts); the observer goes with the app.
  database.observeQueries((ms, failed) => metrics.queryDone(ms / 1000, failed));
  app.addHook('onClose', (_app, done) => { database.observeQueries(null); done(); });

  // The socket.io servers are decorated later (realtime and hosts modules); read at each scrape.
  metrics.watchRealtime({
    customers: () => (app.hasDecorator('io') ? app.io.of('/').sockets.size : 0),
    agents: () => (app.hasDecorator('hostProtocol') ? app.hostProtocol.io.of('/').sockets.size : 0),
  });

  const judge = metricsBearer(config.METRICS_TOKEN);
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const verdict = judge(request.headers.authorization);
    if (verdict === 'off') return reply.code(404).type('text/plain; charset=utf-8').send('Not Found\n');
    if (verdict === 'unauthorized') {
      return reply.code(401).header('www-authenticate', METRICS_CHALLENGE).type('text/plain; charset=utf-8').send('Unauthorized\n');
    }
    const text = await metrics.text();
    return reply.type(metrics.contentType).send(text);
  });
}
