import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { AgentConfig } from './config.js';
import { FingerprintHost, probeFingerprintSupport } from './fingerprint/fingerprint-host.js';
import { kernelRelayOrNull } from './relay/kernel-relay.js';
import { HostModems } from './modems/host-modems.js';
import { loadModemsFile } from './modems/modems-file.js';
import { targetPolicyOf } from './proxy/target-policy-settings.js';
import { AgentMetrics } from './runtime/agent-metrics.js';
import { LoopbackPool, SimulatedModemDriver } from './runtime/drivers/simulated.js';
import type { ModemDriver } from './runtime/drivers/modem-driver.js';
import { HostAgent } from './runtime/host-agent.js';
import type { QualitySettings } from './runtime/quality/quality-tester.js';
import { parseUdpTarget } from './runtime/quality/udp-check.js';
import { createLogger } from './runtime/log.js';
import { startMetricsServer, type MetricsServer } from './runtime/metrics-server.js';
import { AGENT_VERSION } from './version.js';

/** How often a host's modems are looked at again (ones that did not answer, signal, connection). */
const MODEMS_WATCH_MS = 30_000;

/**
 * Starts one HostAgent per host key (the embedded demo passes every seeded host's key; a real host has one). With a
 * modems file (AGENT_MODEMS) the host's own modems are read first (IMEI, model, operator, signal, public IP) and
 * driven by their drivers; a wrong file stops the agent before it serves anything. Without one, every modem is
 * simulated, as the server's state says.
 */
export async function runAgent(config: AgentConfig, overrides: { hostModems?: Partial<ConstructorParameters<typeof HostModems>[0]> } = {}):
Promise<{ agents: HostAgent[]; hostModems: HostModems | null; metrics: MetricsServer | null; stop(drainMs?: number): Promise<void> }> {
  const log = createLogger(config.LOG_LEVEL, { component: 'agent' });
  // Simulated modems of every host in this process share one pool, so no two send from the same loopback address.
  const simulated = new SimulatedModemDriver(new LoopbackPool(), config.AGENT_SIM_DELAY_MS);
  let hostModems: HostModems | null = null;
  let agents: HostAgent[] = [];
  const file = config.AGENT_MODEMS ? await loadModemsFile(config.AGENT_MODEMS) : null;
  const policy = targetPolicyOf(config, file);
  if (file) {
    const limitMs = config.AGENT_REBOOT_MIN_INTERVAL_MINUTES * 60_000;
    hostModems = new HostModems({
      file, dataDir: config.AGENT_DATA_DIR, echoUrls: config.AGENT_IP_ECHO_URLS, rotateAttempts: config.AGENT_ROTATE_ATTEMPTS,
      simulated, log: log.child({ component: 'modems' }),
      health: {
        intervalMs: config.AGENT_HEALTH_INTERVAL_SECONDS * 1000, requestTimeoutMs: config.AGENT_HEALTH_TIMEOUT_SECONDS * 1000,
        rebootEveryMs: limitMs, powerCycleEveryMs: limitMs,
      },
      ...(config.AGENT_POWER_CYCLE_COMMAND ? { powerCycleCommand: config.AGENT_POWER_CYCLE_COMMAND } : {}),
      powerCycleTimeoutMs: config.AGENT_POWER_CYCLE_TIMEOUT_SECONDS * 1000,
      ...(config.AGENT_POLICY_ROUTING ? { policyRouting: { firstTable: config.AGENT_POLICY_ROUTING_TABLE } } : {}),
      // A modem that goes offline or comes back is reported at once, not at the next heartbeat.
      onHealthChange: () => { for (const a of agents) a.heartbeatNow(); },
      // Customer traffic through a modem proves it works, whatever the echo (the server, by default) answers.
      carried: (imei) => agents.reduce((n, a) => n + a.carried(imei), 0),
      ...overrides.hostModems,
    });
    await hostModems.discover();
    const inventory = hostModems.inventory();
    log.info({ configured: file.modems.length, answering: inventory.length }, 'modems read from the modems file');
  }
  const driverFor = (kind: string): ModemDriver => {
    // With a modems file, the file says how each modem is driven (by IMEI), whatever the server last recorded.
    if (hostModems) return hostModems;
    if (kind === 'simulated') return simulated;
    throw new Error(`a ${kind} modem needs this host's modems file (AGENT_MODEMS); without one only simulated modems are served`);
  };
  // OS fingerprint presets (issue 30): as root with tc and a compiler, each modem interface gets its egress program on
  // first use; otherwise the heartbeat says why not, and ports with a preset refuse new connections.
  const fingerprintSupport = await probeFingerprintSupport();
  const fingerprintHost = fingerprintSupport.supported
    ? new FingerprintHost({ log: log.child({ component: 'fingerprint' }), dataDir: config.AGENT_DATA_DIR, ...FingerprintHost.namesFor(config.AGENT_DATA_DIR) })
    : null;
  if (!fingerprintSupport.supported) log.info({ reason: fingerprintSupport.reason }, 'fingerprint presets are not available on this host');
  // Tunnels relayed in the kernel (decision 050, revised for the agent), built here on first start; or in JavaScript.
  const relay = config.AGENT_KERNEL_RELAY
    ? await kernelRelayOrNull(config.AGENT_DATA_DIR, (reason) => log.warn({ reason }, 'relaying tunnels in JavaScript: the kernel relay is not available here'))
    : null;
  // Prometheus metrics only when AGENT_METRICS_PORT is set: nothing listens, and nothing is collected, otherwise.
  const metrics = config.AGENT_METRICS_PORT ? new AgentMetrics() : null;
  agents = config.CELLPORT_HOST_KEY.map((key) => {
    // Each host keeps its own state and traffic, in a folder named after its key (not the key itself).
    const id = createHash('sha256').update(key).digest('hex').slice(0, 12);
    return new HostAgent({
      serverUrl: config.CELLPORT_SERVER_URL, key, dataDir: join(config.AGENT_DATA_DIR, id), listenHost: config.AGENT_LISTEN_HOST,
      policy, driverFor, log: log.child({ hostKey: id }), agentVersion: AGENT_VERSION, reportSeconds: config.AGENT_TRAFFIC_REPORT_SECONDS,
      ...(hostModems ? { inventory: () => hostModems.inventory() } : {}),
      name: id,
      kernelRelay: relay,
      fingerprint: { support: fingerprintSupport, forModem: fingerprintHost ? (imei, hops) => fingerprintHost.forModem(imei, hops) : null },
      ...(config.AGENT_SPEEDTEST_INTERVAL_MINUTES > 0 ? { quality: qualitySettings(config, key) } : {}),
      ...(metrics ? { onRotation: (outcome, seconds) => metrics.rotationDone(outcome, seconds) } : {}),
    });
  });
  for (const a of agents) metrics?.watch(a);
  const metricsServer = metrics && config.AGENT_METRICS_PORT
    ? await startMetricsServer({ host: config.AGENT_METRICS_HOST, port: config.AGENT_METRICS_PORT, token: config.METRICS_TOKEN, registry: metrics.registry })
    : null;
  if (metricsServer) log.info({ host: config.AGENT_METRICS_HOST, port: metricsServer.port, token: Boolean(config.METRICS_TOKEN) }, 'metrics listening on /metrics');
  await Promise.all(agents.map((a) => a.start()));
  // A modem that answers later (plugged in, rebooted) is served as soon as it does.
  hostModems?.watch(MODEMS_WATCH_MS, () => { for (const a of agents) void a.retryOffline(); });
  // Each modem's health: checked every AGENT_HEALTH_INTERVAL_SECONDS, recovered by the ladder when offline.
  if (hostModems && config.AGENT_HEALTH_INTERVAL_SECONDS > 0) hostModems.watchHealth();
  log.info({ hosts: agents.length, version: AGENT_VERSION }, 'agent started');
  return {
    agents, hostModems, metrics: metricsServer,
    // drainMs (SIGTERM): the open tunnels get that long to finish (HostAgent.stop); the modems' watchers stop at once.
    stop: async (drainMs = 0) => {
      hostModems?.stop();
      await Promise.all(agents.map((a) => a.stop(drainMs)));
      await metricsServer?.close();
      await fingerprintHost?.close();
    },
  };
}

/** The speed tests' settings from the environment (README, "Speed tests"); the server's target takes the host key. */
function qualitySettings(config: AgentConfig, key: string): QualitySettings {
  return {
    intervalMs: config.AGENT_SPEEDTEST_INTERVAL_MINUTES * 60_000,
    firstDelayMs: config.AGENT_SPEEDTEST_FIRST_DELAY_SECONDS * 1000,
    retryMs: 10 * 60_000,
    maxConnections: config.AGENT_SPEEDTEST_MAX_CONNECTIONS,
    // Customers moving more than 32 KiB/s through the modem are a load the test would disturb (and be skewed by).
    maxBusyBytesPerSecond: 32 * 1024,
    speed: {
      url: config.AGENT_SPEEDTEST_URL, downloadBytes: config.AGENT_SPEEDTEST_BYTES, uploadBytes: config.AGENT_SPEEDTEST_BYTES,
      timeoutMs: 30_000, ...(config.AGENT_SPEEDTEST_URL.startsWith(config.CELLPORT_SERVER_URL.replace(/\/$/, '')) ? { key } : {}),
    },
    udp: config.AGENT_UDP_CHECK_TARGET ? parseUdpTarget(config.AGENT_UDP_CHECK_TARGET) : null,
  };
}
