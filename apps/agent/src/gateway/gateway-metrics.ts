import { Counter, Gauge, Registry } from 'prom-client';
import { collectProcessMetrics } from '../runtime/process-metrics.js';
import type { GatewayStats } from './gateway.js';

/**
 * The gateway's Prometheus metrics (issue 17), read from its own counts when scraped (Gateway.stats): links, ports,
 * customers' connections (each over a pooled link connection or a stream on the link: decision 047), refusals, bytes. Process metrics are prom-client's defaults but the GC histogram
 * (runtime/process-metrics.ts).
 */
export function gatewayMetrics(stats: () => GatewayStats, options: { processMetrics?: boolean } = {}): Registry {
  const registry = new Registry();
  const registers = [registry];
  if (options.processMetrics ?? true) collectProcessMetrics(registry);
  // Every series reads the same figures, and stats() walks every open connection: take them once per scrape (the
  // collectors all start in the same turn of the event loop).
  let taken: GatewayStats | null = null;
  const read = () => {
    if (!taken) {
      taken = stats();
      setImmediate(() => { taken = null; });
    }
    return taken;
  };
  const gauge = (name: string, help: string, pick: (s: GatewayStats) => number) => new Gauge({
    name, help, registers, collect() { this.set(pick(read())); },
  });
  gauge('cellport_gateway_links', 'Hosts whose link to this gateway is up', (s) => s.links);
  gauge('cellport_gateway_ports', 'Customer ports this gateway listens on for its hosts', (s) => s.ports);
  gauge('cellport_gateway_open_connections', 'Customers\' connections open (each over a pooled link connection or a stream on its host\'s link)', (s) => s.openConnections);
  new Counter({
    name: 'cellport_gateway_connections_total', help: 'Customers\' connections accepted', registers,
    collect() { this.reset(); this.inc(read().connections); },
  });
  new Counter({
    name: 'cellport_gateway_connections_by_path_total',
    help: 'Customers\' connections relayed, by path: pooled (a pooled link connection), stream (an HTTP/2 stream on the link, when no pooled one was ready)',
    labelNames: ['path'], registers,
    collect() {
      this.reset();
      const paths = read().paths;
      for (const path of ['pooled', 'stream'] as const) this.inc({ path }, paths[path]);
    },
  });
  new Counter({
    name: 'cellport_gateway_kernel_relayed_connections_total',
    help: 'Pooled connections relayed in the kernel (splice on the gateway\'s relay thread, decision 050); the rest of pooled in JavaScript',
    registers,
    collect() { this.reset(); this.inc(read().paths.kernel); },
  });
  new Counter({
    name: 'cellport_gateway_refused_connections_total', help: 'Customers refused: link_down (the host has no link), not_served (the agent does not serve the port)',
    labelNames: ['reason'], registers,
    collect() {
      this.reset();
      const refused = read().refused;
      for (const reason of ['link_down', 'not_served'] as const) this.inc({ reason }, refused[reason]);
    },
  });
  // A socket's bytesWritten includes what is still queued, dropped if it closes first: the figure never goes down.
  const shown = { in: 0, out: 0 };
  new Counter({
    name: 'cellport_gateway_bytes_total', help: 'Bytes relayed: direction "in" to customers, "out" from customers',
    labelNames: ['direction'], registers,
    collect() {
      const s = read();
      shown.in = Math.max(shown.in, s.bytesIn);
      shown.out = Math.max(shown.out, s.bytesOut);
      this.reset();
      this.inc({ direction: 'in' }, shown.in);
      this.inc({ direction: 'out' }, shown.out);
    },
  });
  return registry;
}
