import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import { jwtVerify } from 'jose';
import { HOST_PROTOCOL } from '@cellport/shared/schemas/host-protocol';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { seedTestCatalog } from '../../../test/fixtures.js';
import { issueHostKey } from '../hosts/index.js';
import { gatewayTrust } from './gateway-trust.js';

// Issue 26, item 10: a gateway link ticket binds the agent's link key (cnf), so that the gateway can ask the agent to
// prove it holds the private half; the server issues none without the key.

let t: TestApp;
let agent: Socket;
let gatewayId: string;

beforeAll(async () => {
  t = await buildTestApp({ MODEM_CONTROL: 'agent' });
  const cat = await seedTestCatalog(t);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const host = await t.ctx.db.selectFrom('modems').select('host_id').where('country_id', '=', cat.usId).executeTakeFirstOrThrow();
  gatewayId = (await t.ctx.db.insertInto('gateways').values({ name: 'edge-t', public_host: 'edge.test', link_url: 'http://127.0.0.1:1' })
    .returning('id').executeTakeFirstOrThrow()).id;
  await t.ctx.db.updateTable('hosts').set({ gateway_id: gatewayId }).where('id', '=', host.host_id).execute();
  const key = await issueHostKey(t.ctx.db, host.host_id);
  agent = connect(`http://127.0.0.1:${address.port}`, { path: HOST_PROTOCOL.path, transports: ['websocket'], auth: { key }, reconnection: false, forceNew: true });
  await new Promise<void>((resolve, reject) => { agent.once('connect', () => resolve()); agent.once('connect_error', reject); });
});
afterAll(async () => {
  agent?.close();
  await t?.close();
});

const ask = (data: unknown) => agent.timeout(15_000).emitWithAck('gateway-ticket', data) as Promise<{ ticket?: string; error?: string }>;

it('binds the agent\'s link key into the ticket, and issues none without one', async () => {
  expect(await ask({})).toEqual({ error: expect.stringContaining('link key') });
  expect(await ask({ linkKey: 'not-a-key' })).toEqual({ error: expect.stringContaining('link key') });

  const linkKey = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!;
  const reply = await ask({ linkKey });
  expect(reply.ticket).toBeTypeOf('string');
  const trust = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: gatewayTrust(t.config.secret).publicKey }, format: 'jwk' });
  const { payload } = await jwtVerify(reply.ticket!, trust, { audience: gatewayId });
  expect(payload.cnf).toEqual({ jwk: { kty: 'OKP', crv: 'Ed25519', x: linkKey } });
});
