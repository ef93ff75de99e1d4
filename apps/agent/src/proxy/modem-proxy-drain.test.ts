import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  access, basic, closed, destroyTestClients, httpConnect, rawConnect, readUntil, seenThrough, startModem, startTargets,
} from './test-support.js';
import type { Targets } from './test-support.js';

// ModemProxy.drain (the agent's SIGTERM, issue 17 item 5): no new connections, the open ones go on until they end or
// the drain time is over, and then close() ends the rest.

let targets: Targets;
beforeAll(async () => { targets = await startTargets(); });
afterAll(async () => { await targets.close(); });
afterEach(destroyTestClients);

const A = access('a');
const auth = basic(A.login, A.password);

describe('ModemProxy.drain', () => {
  it('refuses new connections at once, lets an open tunnel go on, and resolves when it ends', async () => {
    const modem = await startModem({ ports: [A] });
    try {
      const { socket: tunnel, status } = await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, auth);
      expect(status).toBe(200);
      await seenThrough(tunnel);

      let drained = false;
      const draining = modem.drain(30_000).then(() => { drained = true; });
      await expect(rawConnect(modem.http)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      await expect(rawConnect(modem.socks)).rejects.toMatchObject({ code: 'ECONNREFUSED' });

      // The tunnel still carries bytes both ways (the target echoes).
      tunnel.write('still here\n');
      expect((await readUntil(tunnel, (d) => d.includes('still here\n'))).toString()).toContain('still here');
      expect(drained).toBe(false);

      tunnel.end();
      await draining;
      expect(modem.connectionCount).toBe(0);
    } finally {
      await modem.close();
    }
  });

  it('a connection still open at the deadline is cut by close()', async () => {
    const modem = await startModem({ ports: [A] });
    try {
      const { socket: tunnel } = await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, auth);
      await seenThrough(tunnel);
      await modem.drain(200);
      expect(tunnel.closed).toBe(false);
      await modem.close();
      await closed(tunnel);
      expect(modem.connectionCount).toBe(0);
    } finally {
      await modem.close();
    }
  });

  it('an idle keep-alive client does not hold the drain up', async () => {
    const modem = await startModem({ ports: [A] });
    try {
      const client = await rawConnect(modem.http);
      client.write(`GET http://127.0.0.1:${targets.httpPort}/x HTTP/1.1\r\nHost: 127.0.0.1:${targets.httpPort}\r\nProxy-Authorization: ${auth}\r\n\r\n`);
      const answer = await readUntil(client, (d) => d.includes('"url"') && d.toString().endsWith('}'));
      expect(answer.toString()).toMatch(/^HTTP\/1\.1 200/);
      await modem.drain(30_000);
      await closed(client);
      expect(modem.connectionCount).toBe(0);
    } finally {
      await modem.close();
    }
  });
});
