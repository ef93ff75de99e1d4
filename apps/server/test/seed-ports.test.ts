import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalog, SEEDED_MODEM_PORTS } from '../src/db/seed/catalog.js';
import { buildTestApp, type TestApp } from './helpers.js';

// A demo (`npm start`) on the same machine takes 21000+ for its seeded modems. The tests' seeded modems must not:
// with a listener squatting on 21000 (it answers 407, as the demo's proxy did to a CI run), a test app's seed puts
// every modem on ports that are free, outside the demo's ranges.

let squatter: Server | null = null;
let t: TestApp;
beforeAll(async () => {
  squatter = await new Promise<Server | null>((resolve) => {
    const server = createServer((socket) => socket.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n'));
    server.once('error', () => resolve(null)); // a demo already holds it: the same situation
    server.listen(21000, '0.0.0.0', () => resolve(server));
  });
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => (squatter ? squatter.close(r) : r(undefined)));
});

describe('the seeded modems in tests', () => {
  it('listen on a free block, away from the ports a running npm start takes', async () => {
    await seedCatalog(t.ctx);
    const modems = await t.ctx.db.selectFrom('modems').select(['http_port', 'socks_port']).where('imei', 'like', '35%').execute();
    const ports = modems.flatMap((m) => [m.http_port, m.socks_port]);
    expect(ports).toHaveLength(SEEDED_MODEM_PORTS);
    for (const port of ports) {
      expect(port < 21000 || port >= 21000 + SEEDED_MODEM_PORTS, `port ${port}`).toBe(true);
      expect(port < 41000 || port >= 41000 + SEEDED_MODEM_PORTS, `port ${port}`).toBe(true);
    }
    // And nothing listens on them: an agent serving them is the only one a test reaches there.
    for (const port of ports) {
      const probe = createServer();
      await new Promise<void>((resolve, reject) => { probe.once('error', reject); probe.listen(port, '0.0.0.0', resolve); });
      await new Promise((r) => probe.close(r));
    }
  });
});
