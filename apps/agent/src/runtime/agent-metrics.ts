import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { REFUSAL_REASONS, UPSTREAM_ERRORS } from '../proxy/proxy-counters.js';
import type { HostAgent, RotationOutcome } from './host-agent.js';
import { collectProcessMetrics } from './process-metrics.js';

/** What the metrics read of a host agent when scraped. */
export type MetricsSource = Pick<HostAgent,
  'name' | 'counters' | 'serverConnected' | 'desiredState' | 'gatewayLinkUp' | 'countOpen' | 'trafficTotals' | 'snapshot'>;

const ROTATION_BUCKETS = [0.5, 1, 2, 5, 10, 20, 30, 45, 60, 90, 120, 180, 300];
const KINDS = ['http', 'socks5', 'udp'] as const;
/** Open connections not yet admitted to a port (handshaking, refused and closing). */
const NO_PORT = 'none';

/**
 * The agent's Prometheus metrics (issue 17, item 2), in a registry of its own (several agents in one test process).
 * Nothing here is on the data path: connections, refusals and bytes are the plain counts the proxies keep anyway
 * (proxy-counters.ts, the traffic meter's totals), read when scraped, as are the modems and the server link. Only a
 * rotation is observed as it ends. Labels stay bounded: a port is its id (the host's own ports), a reason or kind is
 * one of a fixed list, and no target or client address is ever a label. Process metrics are prom-client's defaults but
 * the GC histogram (process-metrics.ts).
 */
export class AgentMetrics {
  readonly registry = new Registry();
  private readonly sources: MetricsSource[] = [];
  private readonly rotationSeconds: Histogram;
  private readonly rotations: Counter<'outcome'>;

  constructor(options: { processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    const sources = this.sources;
    if (options.processMetrics ?? true) collectProcessMetrics(this.registry);

    new Gauge({
      name: 'cellport_agent_open_connections', help: `Open customer connections by port id ("${NO_PORT}" until admitted to one) and kind`,
      labelNames: ['port_id', 'kind'], registers,
      collect() {
        const open = new Map<string, number>();
        for (const s of sources) s.countOpen(open);
        this.reset();
        for (const kind of KINDS) this.set({ port_id: NO_PORT, kind }, 0);
        for (const [key, n] of open) {
          const [portId, kind] = key.split('\n') as [string, string];
          this.set({ port_id: portId || NO_PORT, kind }, n);
        }
      },
    });
    new Counter({
      name: 'cellport_agent_connections_total', help: 'Customer connections accepted, by kind (a UDP association also counts as udp)',
      labelNames: ['kind'], registers,
      collect() {
        this.reset();
        for (const kind of KINDS) this.inc({ kind }, sum(sources, (s) => s.counters.accepted[kind]));
      },
    });

    // Bytes as the traffic reports count them. A socket's bytesWritten includes what is still queued, which is dropped
    // if it closes first: the figure shown never goes down (the report to the server is not affected).
    const shownBytes = new Map<string, number>();
    new Counter({
      name: 'cellport_agent_bytes_total', help: 'Bytes per customer port: direction "in" to the customer, "out" from the customer (as in the traffic reports)',
      labelNames: ['port_id', 'direction'], registers,
      collect() {
        const now = new Map<string, number>();
        const add = (key: string, n: number) => now.set(key, (now.get(key) ?? 0) + n);
        for (const s of sources) {
          for (const [portId, t] of s.trafficTotals()) {
            add(`${portId}\nin`, t.bytesIn);
            add(`${portId}\nout`, t.bytesOut);
          }
        }
        this.reset();
        for (const [key, n] of now) {
          const shown = Math.max(n, shownBytes.get(key) ?? 0);
          shownBytes.set(key, shown);
          const [portId, direction] = key.split('\n') as [string, string];
          this.inc({ port_id: portId, direction }, shown);
        }
        // A port no longer served here leaves the metrics.
        for (const key of shownBytes.keys()) if (!now.has(key)) shownBytes.delete(key);
      },
    });
    new Counter({
      name: 'cellport_agent_refused_connections_total', help: 'Customer connections (or HTTP requests) refused, by reason',
      labelNames: ['reason'], registers,
      collect() {
        this.reset();
        for (const reason of REFUSAL_REASONS) this.inc({ reason }, sum(sources, (s) => s.counters.refused[reason]));
      },
    });
    new Counter({
      name: 'cellport_agent_auth_blocks_total', help: 'Blocks started for proxy password guessing, by scope: a client address (an IPv6 /64) or a login',
      labelNames: ['scope'], registers,
      collect() {
        this.reset();
        for (const scope of ['address', 'login'] as const) this.inc({ scope }, sum(sources, (s) => s.counters.authBlocks[scope]));
      },
    });
    new Counter({
      name: 'cellport_agent_upstream_errors_total', help: 'Allowed requests that got no connection to their target, by reason',
      labelNames: ['reason'], registers,
      collect() {
        this.reset();
        for (const reason of UPSTREAM_ERRORS) this.inc({ reason }, sum(sources, (s) => s.counters.upstreamErrors[reason]));
      },
    });

    this.rotationSeconds = new Histogram({
      name: 'cellport_agent_rotation_duration_seconds', help: 'Time a rotation took, from the driver\'s start to its end (done or failed)',
      buckets: ROTATION_BUCKETS, registers,
    });
    this.rotations = new Counter({
      name: 'cellport_agent_rotations_total', help: 'Rotate commands by outcome: ok, failed, ip_collision (the same IP each try), refused (offline, busy, unknown modem)',
      labelNames: ['outcome'], registers,
    });
    for (const outcome of ['ok', 'failed', 'ip_collision', 'refused'] as const) this.rotations.inc({ outcome }, 0);

    new Gauge({
      name: 'cellport_agent_modems', help: 'Modems served, by state (online, offline, rotating) and health check result (online, degraded, offline, unchecked)',
      labelNames: ['state', 'health'], registers,
      collect() {
        this.reset();
        const counts = new Map<string, number>();
        for (const s of sources) {
          for (const m of s.snapshot()) {
            const key = `${m.state}\n${m.health?.state ?? 'unchecked'}`;
            counts.set(key, (counts.get(key) ?? 0) + 1);
          }
        }
        for (const [key, n] of counts) {
          const [state, health] = key.split('\n') as [string, string];
          this.set({ state, health }, n);
        }
      },
    });
    new Gauge({
      name: 'cellport_agent_server_connected', help: 'Whether the host\'s connection to the server is up (1) or not (0)',
      labelNames: ['host'], registers,
      collect() {
        this.reset();
        for (const s of sources) this.set({ host: s.name }, s.serverConnected ? 1 : 0);
      },
    });
    new Gauge({
      name: 'cellport_agent_desired_state_info', help: 'The desired-state version the host serves (value 1)',
      labelNames: ['host', 'version'], registers,
      collect() {
        this.reset();
        for (const s of sources) {
          const state = s.desiredState;
          if (state) this.set({ host: s.name, version: state.version }, 1);
        }
      },
    });
    new Gauge({
      name: 'cellport_agent_desired_state_age_seconds', help: 'Seconds since the server last sent the host its desired state (absent until it has)',
      labelNames: ['host'], registers,
      collect() {
        this.reset();
        for (const s of sources) {
          const at = s.desiredState?.receivedAt;
          if (at != null) this.set({ host: s.name }, (Date.now() - at) / 1000);
        }
      },
    });
    new Gauge({
      name: 'cellport_agent_gateway_link_up', help: 'Hosts behind a gateway: whether the link to it is up (1) or not (0)',
      labelNames: ['host'], registers,
      collect() {
        this.reset();
        for (const s of sources) {
          const up = s.gatewayLinkUp;
          if (up !== null) this.set({ host: s.name }, up ? 1 : 0);
        }
      },
    });
  }

  /** A host agent whose figures are read at each scrape. */
  watch(source: MetricsSource): void {
    this.sources.push(source);
  }

  /** A rotate command ended; `seconds` for one the driver ran. */
  rotationDone(outcome: RotationOutcome, seconds: number | null): void {
    this.rotations.inc({ outcome });
    if (seconds !== null) this.rotationSeconds.observe(seconds);
  }
}

function sum(sources: readonly MetricsSource[], pick: (s: MetricsSource) => number): number {
  let n = 0;
  for (const s of sources) n += pick(s);
  return n;
}
