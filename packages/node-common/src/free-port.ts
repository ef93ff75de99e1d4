import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { once } from 'node:events';

// A port for a listener a test opens later (its own server, an agent's modem, a child process). Asking the kernel
// (listen on port 0) gives a port of its ephemeral range, which every connect() without a named port, and the proxy's
// dialer (source-ports.ts), also draw from: in a full parallel test run one of them could take the port as a source
// port before the test's listener binds it (seen in CI: a modem's listener missed its port, its requests were refused).
// So the port is drawn from 10000-20999, where the kernel never hands one out, away from the seeded modems' blocks of
// the tests (22000-32000, apps/server/test/seed-ports.ts), `npm start`'s demo modems (21000+, 41000+) and the usual
// fixed ports (3000, 5432, 6379, 7400, 9100, 9464), and checked free on `host` now.

/** The lowest port of net.ipv4.ip_local_port_range (Linux's default, 32768, when unreadable). */
function ephemeralLow(): number {
  try {
    const low = Number(/^\s*(\d+)/.exec(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8'))?.[1]);
    return Number.isInteger(low) && low > 0 ? low : 32768;
  } catch {
    return 32768;
  }
}

const LOW = 10_000;
/** Below the ephemeral range also where it has been moved down. */
const HIGH = Math.min(20_999, ephemeralLow() - 1);
/**
 * Each test worker its own slice of them (vitest numbers its workers in VITEST_POOL_ID), handed out in turn from a
 * random start and never twice: two ports asked for before either is bound (a modem's HTTP and SOCKS ports) differ,
 * and two workers never pick the same port between its check and its bind.
 */
const SLICES = 8;
const SLICE = Math.floor((HIGH - LOW + 1) / SLICES);
const slot = (Number(process.env.VITEST_POOL_ID ?? process.pid) || 0) % SLICES;
const sliceLow = LOW + slot * SLICE;
let next = Math.floor(Math.random() * SLICE);
let handed = 0;

async function bindable(port: number, host: string): Promise<boolean> {
  const server = createServer();
  server.on('error', () => {});
  server.listen(port, host);
  const [event] = await Promise.race([once(server, 'listening').then(() => ['listening']), once(server, 'error').then(() => ['error'])]);
  if (event !== 'listening') return false;
  await new Promise((resolve) => server.close(resolve));
  return true;
}

/** A TCP port free on `host` right now, outside the kernel's ephemeral range, not given before by this process. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  while (SLICE >= 100 && handed < SLICE) {
    const port = sliceLow + (next++ % SLICE);
    handed++;
    if (await bindable(port, host)) return port;
  }
  // No room below the ephemeral range (or every port of the slice given): the kernel's choice.
  const server = createServer().listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
