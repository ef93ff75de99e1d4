import { readFileSync } from 'node:fs';

// Source ports for target connections, which leave bound to the modem's egress address (issue 31, item 1).
//
// Binding to an address with port 0 makes Linux search its ephemeral range for a port that no socket on that address
// holds, TIME_WAIT ones included. A proxy closes most tunnels' target connections first (the client's FIN is passed
// on), so the egress address gathers TIME_WAIT sockets at the rate of new tunnels: at a few thousand tunnels per
// second the range is nearly full within seconds and every bind() walks most of it. That search was 55 % of the
// proxy's CPU over 15,000 tunnels in a row, and a bound connect took 5× an unbound one in a plain Node client
// (bench/BENCHMARKS.md, 2026-12-07). C proxies avoid it with IP_BIND_ADDRESS_NO_PORT, which Node cannot set.
//
// So the dialer names the port: a random one from the kernel's ephemeral range (RFC 6056's simple randomization, so
// source ports stay unpredictable). libuv binds with SO_REUSEADDR, under which a named port is free unless a listener
// holds it; whether the whole four-tuple is free is then connect()'s check, as for the kernel's own choice. A port that
// fails either way (EADDRINUSE, EADDRNOTAVAIL) is retried with another, and the last try is port 0: the kernel's
// choice, as before (modem-proxy.ts).

export interface PortRange {
  low: number;
  high: number;
}

/** Linux's default net.ipv4.ip_local_port_range, for systems without the file. */
const DEFAULT_RANGE: PortRange = { low: 32768, high: 60999 };

/** "low<whitespace>high" as in /proc/sys/net/ipv4/ip_local_port_range; the default when it does not read as such. */
export function parsePortRange(text: string): PortRange {
  const m = /^\s*(\d+)\s+(\d+)\s*$/.exec(text);
  if (m === null) return DEFAULT_RANGE;
  const low = Number(m[1]);
  const high = Number(m[2]);
  return low >= 1 && low <= high && high <= 65535 ? { low, high } : DEFAULT_RANGE;
}

/** "p,a-b,..." as in /proc/sys/net/ipv4/ip_local_reserved_ports (ports the kernel never picks by itself). */
export function parseReservedPorts(text: string): PortRange[] {
  const out: PortRange[] = [];
  for (const part of text.split(',')) {
    const m = /^\s*(\d+)(?:-(\d+))?\s*$/.exec(part);
    if (m !== null) out.push({ low: Number(m[1]), high: Number(m[2] ?? m[1]) });
  }
  return out;
}

/** Random ports from `range`, never one of `reserved` (0 then: the kernel's choice). */
export function randomPorts(range: PortRange, reserved: readonly PortRange[]): () => number {
  const span = range.high - range.low + 1;
  return () => {
    // A few draws; with reserved ranges covering nearly everything, the kernel is left to choose.
    for (let i = 0; i < 4; i++) {
      const port = range.low + Math.floor(Math.random() * span);
      if (!reserved.some((r) => port >= r.low && port <= r.high)) return port;
    }
    return 0;
  };
}

function readProc(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

let systemPorts: (() => number) | null = null;

/** A source port as the kernel would pick one (its ephemeral range, not its reserved ports); read once per process. */
export function systemSourcePort(): number {
  systemPorts ??= randomPorts(
    parsePortRange(readProc('/proc/sys/net/ipv4/ip_local_port_range')),
    parseReservedPorts(readProc('/proc/sys/net/ipv4/ip_local_reserved_ports')),
  );
  return systemPorts();
}
