import { vi } from 'vitest';

/** A port for a listener the test opens later: outside the kernel's ephemeral range (node-common/free-port.ts says why). */
export { freePort } from '@cellport/node-common/free-port';

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

