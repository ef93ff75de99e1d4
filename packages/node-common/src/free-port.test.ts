import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { freePort } from './free-port.js';

describe('freePort', () => {
  it('gives a port below the kernel\'s ephemeral range that a listener can take', async () => {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    const port = await freePort();
    expect(port).toBeGreaterThanOrEqual(1024);
    expect(port).toBeLessThan(low);
    const server = createServer().listen(port, '127.0.0.1');
    await once(server, 'listening');
    await new Promise((resolve) => server.close(resolve));
  });

  it('skips a port a listener holds', async () => {
    const ports = new Set<number>();
    const held = [];
    for (let i = 0; i < 20; i++) {
      const server = createServer().listen(await freePort(), '127.0.0.1');
      await once(server, 'listening');
      ports.add((server.address() as { port: number }).port);
      held.push(server);
    }
    // Twenty listeners, each on a port freePort gave while the ones before held theirs: all distinct.
    expect(ports.size).toBe(20);
    await Promise.all(held.map((s) => new Promise((resolve) => s.close(resolve))));
  });
});
