import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { METRICS_CHALLENGE, metricsBearer } from '@cellport/node-common/metrics-auth';

// The agent's and the gateway's /metrics listener (issue 17, item 2), with the server's rules
// (apps/server/src/modules/metrics/metrics.routes.ts; the check itself is @cellport/node-common/metrics-auth): GET /metrics answers 404 while METRICS_TOKEN is unset, 401
// unless `Authorization: Bearer <METRICS_TOKEN>`, and the Prometheus text with it. Anything else is 404. It is started
// only when a metrics port is set; nothing listens otherwise.

export interface MetricsServerOptions {
  host: string;
  port: number;
  token: string | undefined;
  registry: Registry;
}

export interface MetricsServer {
  /** The port listened on (the option's 0 picks a free one, as tests do). */
  readonly port: number;
  close(): Promise<void>;
}

function plain(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers }).end(body);
}

export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const judge = metricsBearer(options.token);
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const verdict = judge(req.headers.authorization);
    if (req.method !== 'GET' || path !== '/metrics' || verdict === 'off') return plain(res, 404, 'Not Found\n');
    if (verdict === 'unauthorized') return plain(res, 401, 'Unauthorized\n', { 'www-authenticate': METRICS_CHALLENGE });
    options.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': options.registry.contentType, 'cache-control': 'no-store' }).end(text),
      (err: unknown) => plain(res, 500, `${String(err)}\n`),
    );
  });
  // A scraper is one client every few seconds: short timeouts, no keep-alive held for long.
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(new Error(`the metrics port ${options.port} on ${options.host} ${err.code === 'EADDRINUSE' ? 'is already in use' : `cannot be opened (${err.code ?? err.message})`}`));
    });
    server.listen({ host: options.host, port: options.port }, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
