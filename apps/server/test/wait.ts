import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { vi } from 'vitest';

/**
 * Waits (vi.waitFor, every 100 ms) until the probe gives a value, and returns it; past `timeout` the test fails
 * naming `what`. The process tests' one way to wait for a real process's effect, never for time.
 */
export const until = <T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeout = 60_000) =>
  vi.waitFor(async () => {
    const value = await probe();
    if (value === undefined) throw new Error(`timed out waiting for ${what}`);
    return value;
  }, { timeout, interval: 100 });

/** A TCP port free on `host` right now (a listener opened and closed), for a process the test starts later. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const s = createServer().listen(0, host);
  await once(s, 'listening');
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}
