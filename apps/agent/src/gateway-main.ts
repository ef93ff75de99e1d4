import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Gateway } from './gateway/gateway.js';
import { GatewayConfigError, loadGatewayConfig } from './gateway/gateway-config.js';
import { gatewayMetrics } from './gateway/gateway-metrics.js';
import { trustKeyFrom } from './gateway/link-ticket.js';
import { kernelRelayOrNull } from './relay/kernel-relay.js';
import { createLogger } from './runtime/log.js';
import { startMetricsServer } from './runtime/metrics-server.js';
import { startupFailure } from './runtime/startup-failure.js';
import { AGENT_VERSION } from './version.js';

// `npm run gateway` on a public machine: relays customers' connections to hosts behind NAT (docs/deploy-gateway.md).
async function main(): Promise<void> {
  // A log reader that went away (EPIPE) ends this process's log, never the process (issue 26, item 13).
  for (const out of [process.stdout, process.stderr]) out.on('error', () => {});
  const config = loadGatewayConfig();
  const log = createLogger(config.LOG_LEVEL, { component: 'gateway' });
  const relay = config.GATEWAY_KERNEL_RELAY
    ? await kernelRelayOrNull(resolve(config.GATEWAY_DATA_DIR), (reason) => log.warn({ reason }, 'relaying in JavaScript: the kernel relay is not available here'))
    : null;
  const gateway = new Gateway({
    kernelRelay: relay,
    id: config.GATEWAY_ID,
    trustKey: trustKeyFrom(config.GATEWAY_TRUST_KEY),
    linkHost: config.GATEWAY_LINK_HOST,
    linkPort: config.GATEWAY_LINK_PORT,
    listenHost: config.GATEWAY_LISTEN_HOST,
    ...(config.GATEWAY_TLS_CERT && config.GATEWAY_TLS_KEY
      ? { tls: { cert: readFileSync(config.GATEWAY_TLS_CERT, 'utf8'), key: readFileSync(config.GATEWAY_TLS_KEY, 'utf8') } }
      : {}),
    log,
  });
  await gateway.start();
  // Prometheus metrics only when GATEWAY_METRICS_PORT is set (docs/operations.md, Metrics).
  const metrics = config.GATEWAY_METRICS_PORT
    ? await startMetricsServer({
      host: config.GATEWAY_METRICS_HOST, port: config.GATEWAY_METRICS_PORT, token: config.METRICS_TOKEN, registry: gatewayMetrics(() => gateway.stats()),
    })
    : null;
  if (metrics) log.info({ host: config.GATEWAY_METRICS_HOST, port: metrics.port, token: Boolean(config.METRICS_TOKEN) }, 'metrics listening on /metrics');
  log.info({ id: config.GATEWAY_ID, version: AGENT_VERSION, kernelRelay: relay !== null }, 'gateway started');
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping: closing the listeners and the links');
    const force = setTimeout(() => { log.error({}, 'stopping took too long: exiting'); process.exit(1); }, 10_000).unref();
    Promise.all([gateway.close(), metrics?.close()]).finally(() => { clearTimeout(force); log.info({}, 'stopped'); process.exit(0); });
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

main().catch((err: unknown) => {
  const config = (() => { try { return loadGatewayConfig(); } catch { return null; } })();
  const ports: Record<number, string> = config
    ? { [config.GATEWAY_LINK_PORT]: 'GATEWAY_LINK_PORT', ...(config.GATEWAY_METRICS_PORT ? { [config.GATEWAY_METRICS_PORT]: 'GATEWAY_METRICS_PORT' } : {}) }
    : {};
  console.error(startupFailure(err, (e) => e instanceof GatewayConfigError, ports));
  process.exit(1);
});
