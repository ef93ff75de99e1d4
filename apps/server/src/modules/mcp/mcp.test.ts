import type { AddressInfo } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { MCP_TOOLS } from '@cellport/shared/schemas/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { seedDemoUser } from '../../db/seed/demo-user.js';
import { credit, json, seedTestCatalog, usdtBalance, type Customer } from '../../../test/fixtures.js';

let t: TestApp;
let base: string;
let demo: Customer;
let key: string;
let cat: Awaited<ReturnType<typeof seedTestCatalog>>;
let boughtPortId: string;
const clients: Client[] = [];

const ruErrors = JSON.parse(readFileSync(new URL('../../../../../packages/shared/locales/ru/errors.json', import.meta.url), 'utf8')) as Record<string, string>;

/** An MCP client of the SDK itself, over Streamable HTTP to the app listening on 127.0.0.1. */
async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'cellport-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } });
  await client.connect(transport);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
function ok<T = Record<string, unknown>>(res: CallToolResult): T {
  expect(res.isError, JSON.stringify(res.content)).toBeFalsy();
  const text = (res.content[0] as { text: string }).text;
  expect(JSON.parse(text)).toEqual(res.structuredContent);
  return res.structuredContent as T;
}
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
function failed(res: CallToolResult): string {
  expect(res.isError).toBe(true);
  return (res.content[0] as { text: string }).text;
}

beforeAll(async () => {
  t = await buildTestApp({ MODEM_CONTROL: 'simulated', MODEM_SIM_DELAY_MS: '5', MODEM_SIM_SAME_IP_RATE: '0' });
  cat = await seedTestCatalog(t);
  // The demo customer of `npm start`, with a session, $200 and one port bought on the website.
  await seedDemoUser(t.ctx);
  const user = await t.ctx.db.selectFrom('users').select('id').where('email', '=', t.config.DEMO_EMAIL.toLowerCase()).executeTakeFirstOrThrow();
  const token = await t.ctx.sessions.create(user.id, { ip: '127.0.0.1', headers: {} } as FastifyRequest);
  demo = { id: user.id, cookie: `cp_session=${token}` };
  await credit(t, demo.id, 200_000_000n);
  const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(demo.cookie, {
    tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
  }) });
  expect(bought.statusCode, bought.body).toBe(200);
  boughtPortId = bought.json().data.modems[0]._id;
  const created = await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', ...json(demo.cookie, { name: 'agent' }) });
  key = created.json().key;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await t?.close();
});

describe('MCP server at /mcp', () => {
  it('initializes and lists every tool with its input schema', async () => {
    const client = await connect({ authorization: `Bearer ${key}` });
    expect(client.getServerVersion()?.name).toBe('cellport');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.values(MCP_TOOLS).sort());
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.description?.length, tool.name).toBeGreaterThan(20);
    }
    const buy = tools.find((tool) => tool.name === MCP_TOOLS.buyPorts)!;
    // The REST route's schema: its fields and rules, plus the Idempotency-Key header as a field.
    expect(Object.keys(buy.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['tariff_id', 'country_id', 'isShared', 'rotationInterval', 'modemCount', 'coupon', 'idempotency_key']));
    expect(buy.inputSchema.required).toEqual(expect.arrayContaining(['tariff_id', 'country_id', 'isShared', 'rotationInterval', 'modemCount']));
    expect((buy.inputSchema.properties as Record<string, { maximum?: number }>).modemCount!.maximum).toBe(50);
    const update = tools.find((tool) => tool.name === MCP_TOOLS.updatePort)!;
    expect(Object.keys(update.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['id', 'login', 'password', 'whitelist']));
  });

  it('lists the demo customer\'s ports and rotates one', async () => {
    const client = await connect({ authorization: `Bearer ${key}` });
    const { ports } = ok<{ ports: Array<{ _id: string; ext_ip: string }> }>(await call(client, MCP_TOOLS.listPorts));
    expect(ports.map((p) => p._id)).toEqual([boughtPortId]);
    const { port } = ok<{ port: { _id: string; ext_ip: string } }>(await call(client, MCP_TOOLS.getPort, { id: boughtPortId }));
    expect(port._id).toBe(boughtPortId);

    const rotated = ok<{ old_ip: string; new_ip: string }>(await call(client, MCP_TOOLS.rotatePort, { id: boughtPortId }));
    expect(rotated.old_ip).toBe(ports[0]!.ext_ip);
    expect(rotated.new_ip).not.toBe(rotated.old_ip);
    const after = ok<{ port: { ext_ip: string } }>(await call(client, MCP_TOOLS.getPort, { id: boughtPortId }));
    expect(after.port.ext_ip).toBe(rotated.new_ip);
    // The REST list shows it too (the kept list was dropped by the tool's write).
    const rest = await t.app.inject({ method: 'GET', url: '/api/v1/modems', headers: { authorization: `Bearer ${key}` } });
    expect(rest.json()[0].ext_ip).toBe(rotated.new_ip);

    // The service's own rule holds, with its message in the key owner's language.
    await t.ctx.db.updateTable('users').set({ language: 'ru' }).where('id', '=', demo.id).execute();
    try {
      const tooSoon = failed(await call(client, MCP_TOOLS.rotatePort, { id: boughtPortId }));
      const [before, after] = ruErrors.ROTATION_TOO_SOON!.split('{{retryAfter}}') as [string, string];
      expect(tooSoon).toMatch(new RegExp(`^${literal(before)}\\d+${literal(after)} \\(ROTATION_TOO_SOON\\)$`));
      expect(failed(await call(client, MCP_TOOLS.getPort, { id: '00000000-0000-4000-8000-000000000000' }))).toBe(`${ruErrors.NOT_FOUND} (NOT_FOUND)`);
    } finally {
      await t.ctx.db.updateTable('users').set({ language: 'en' }).where('id', '=', demo.id).execute();
    }
  });

  it('lists the fingerprint presets and sets a port\'s, by the service\'s rules and in the owner\'s language (issue 30)', async () => {
    const client = await connect({ authorization: `Bearer ${key}` });
    const { presets } = ok<{ presets: Array<{ id: string; name: string; p0f: { label: string }; ja4t: string }> }>(await call(client, MCP_TOOLS.listFingerprintPresets));
    expect(presets.map((p) => p.id)).toEqual(['native', 'windows', 'macos', 'ios', 'android']);
    expect(presets.find((p) => p.id === 'windows')).toMatchObject({ name: 'Windows', p0f: { label: 'Windows NT kernel' } });
    const hostId = (await t.ctx.db.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id').select('m.host_id')
      .where('p.id', '=', boughtPortId).executeTakeFirstOrThrow()).host_id;
    // The host's agent has not said it can apply presets: refused, with the reason, in the owner's language.
    await t.ctx.db.updateTable('users').set({ language: 'ru' }).where('id', '=', demo.id).execute();
    try {
      expect(failed(await call(client, MCP_TOOLS.setPortFingerprint, { id: boughtPortId, preset: 'windows' })))
        .toBe(`${ruErrors.FINGERPRINT_UNAVAILABLE} (FINGERPRINT_UNAVAILABLE)`);
    } finally {
      await t.ctx.db.updateTable('users').set({ language: 'en' }).where('id', '=', demo.id).execute();
    }
    await t.ctx.db.updateTable('hosts').set({ fingerprint: JSON.stringify({ supported: true }) }).where('id', '=', hostId).execute();
    try {
      const { port } = ok<{ port: { fingerprint: { preset: string; active: string } } }>(await call(client, MCP_TOOLS.setPortFingerprint, { id: boughtPortId, preset: 'windows' }));
      expect(port.fingerprint).toMatchObject({ preset: 'windows', active: 'windows' });
      const row = await t.ctx.db.selectFrom('ports').select('fingerprint').where('id', '=', boughtPortId).executeTakeFirstOrThrow();
      expect(row.fingerprint).toBe('windows');
      expect(failed(await call(client, MCP_TOOLS.setPortFingerprint, { id: boughtPortId, preset: 'linux' }))).toMatch(/preset|Invalid/i);
      // Back to the default; the check needs an echo, which this app has none of.
      expect(ok<{ port: { fingerprint: { preset: null } } }>(await call(client, MCP_TOOLS.setPortFingerprint, { id: boughtPortId, preset: null })).port.fingerprint.preset).toBeNull();
      expect(failed(await call(client, MCP_TOOLS.checkPortFingerprint, { id: boughtPortId }))).toMatch(/\(FINGERPRINT_ECHO_NOT_CONFIGURED\)$/);
    } finally {
      await t.ctx.db.updateTable('hosts').set({ fingerprint: null }).where('id', '=', hostId).execute();
    }
  });

  it('changes credentials and the whitelist through the service\'s rules', async () => {
    const client = await connect({ authorization: `Bearer ${key}` });
    const { port } = ok<{ port: { login: string; password: string; whitelist: string[] } }>(await call(client, MCP_TOOLS.updatePort, {
      id: boughtPortId, login: 'agent_login', password: 'agent-pass-1', whitelist: ['203.0.113.7'],
    }));
    // A chosen login carries the account's prefix (decision 035).
    expect(port).toMatchObject({ login: expect.stringMatching(/^[a-z0-9]{5}\.agent_login$/), password: 'agent-pass-1', whitelist: ['203.0.113.7'] });
    // Tags through update_port, and list_ports filtered by one (the REST route's ?tag=).
    expect(ok<{ port: { tags: string[] } }>(await call(client, MCP_TOOLS.updatePort, { id: boughtPortId, tags: ['Agent-EU'] })).port.tags).toEqual(['agent-eu']);
    expect(ok<{ ports: Array<{ _id: string }> }>(await call(client, MCP_TOOLS.listPorts, { tag: 'agent-eu' })).ports.map((p) => p._id)).toEqual([boughtPortId]);
    expect(ok<{ ports: unknown[] }>(await call(client, MCP_TOOLS.listPorts, { tag: 'other' })).ports).toEqual([]);
    const row = await t.ctx.db.selectFrom('ports').select(['proxy_login', 'whitelist']).where('id', '=', boughtPortId).executeTakeFirstOrThrow();
    expect(row.proxy_login).toBe(port.login);
    expect(failed(await call(client, MCP_TOOLS.updatePort, { id: boughtPortId, whitelist: ['not an ip'] }))).toContain('(VALIDATION)');
  });

  it('prices a purchase without charging, then buys it once per idempotency key', async () => {
    const client = await connect({ authorization: `Bearer ${key}` });
    const before = await usdtBalance(t, demo.id);
    const balance = ok<{ usdt: { balance: string; usd: string } }>(await call(client, MCP_TOOLS.getBalance));
    expect(balance.usdt.balance).toBe(before.toString());

    const order = { tariff_id: cat.dedicatedWeek.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 2 };
    const quote = ok<{ amount: string; enoughBalance: boolean; balance: string }>(await call(client, MCP_TOOLS.quotePurchase, order));
    expect(BigInt(quote.amount)).toBe(BigInt(cat.dedicatedWeek.price) * 2n);
    expect(quote).toMatchObject({ enoughBalance: true, balance: before.toString() });
    expect(await usdtBalance(t, demo.id)).toBe(before);

    const bought = ok<{ payment: { _id: string; amount: string }; modems: Array<{ _id: string }> }>(
      await call(client, MCP_TOOLS.buyPorts, { ...order, idempotency_key: 'agent-order-1' }));
    expect(bought.modems).toHaveLength(2);
    expect(bought.payment.amount).toBe(quote.amount);
    expect(await usdtBalance(t, demo.id)).toBe(before - BigInt(quote.amount));
    // A retry with the same key (the agent lost the answer) returns the same purchase and pays nothing.
    const again = ok<{ payment: { _id: string } }>(await call(client, MCP_TOOLS.buyPorts, { ...order, idempotency_key: 'agent-order-1' }));
    expect(again.payment._id).toBe(bought.payment._id);
    expect(await usdtBalance(t, demo.id)).toBe(before - BigInt(quote.amount));
    const { ports } = ok<{ ports: unknown[] }>(await call(client, MCP_TOOLS.listPorts));
    expect(ports).toHaveLength(3);

    // Renewal, invoices, traffic and the catalog through the same services.
    const renewed = ok<{ payment: { kind: string } }>(await call(client, MCP_TOOLS.renewPorts, { basket: { [boughtPortId]: { days: 3 } }, idempotency_key: 'renew-1' }));
    expect(renewed.payment.kind).toBe('renewal');
    const { invoices } = ok<{ invoices: Array<{ paymentId: string }> }>(await call(client, MCP_TOOLS.listInvoices));
    expect(invoices.map((i) => i.paymentId)).toContain(bought.payment._id);
    expect(invoices).toHaveLength(3);
    const traffic = ok<{ data: unknown[]; totals: { bytesIn: string } }>(await call(client, MCP_TOOLS.getTraffic, { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }));
    expect(traffic).toEqual({ data: [], totals: { bytesIn: '0', bytesOut: '0' } });
    expect(failed(await call(client, MCP_TOOLS.getTraffic, { from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' }))).toContain('(TRAFFIC_RANGE)');
    const catalog = ok<{ tariffs: Array<{ _id: string }> }>(await call(client, MCP_TOOLS.listTariffs));
    expect(catalog.tariffs.map((x) => x._id)).toContain(cat.dedicatedWeek.id);

    // More than the balance holds: the service refuses and nothing is charged.
    const left = await usdtBalance(t, demo.id);
    const tooMany = { ...order, tariff_id: cat.dedicatedMonth.id, modemCount: 2 };
    expect(ok<{ enoughBalance: boolean }>(await call(client, MCP_TOOLS.quotePurchase, tooMany)).enoughBalance).toBe(false);
    expect(failed(await call(client, MCP_TOOLS.buyPorts, tooMany))).toMatch(/\(INSUFFICIENT_FUNDS\)$/);
    expect(await usdtBalance(t, demo.id)).toBe(left);
  });

  it('refuses to rotate a shared port: it rotates on its modem\'s schedule, for every co-tenant at once', async () => {
    const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(demo.cookie, {
      tariff_id: cat.sharedMonth.id, country_id: cat.usId, isShared: true, rotationInterval: 10, modemCount: 1,
    }) });
    expect(bought.statusCode, bought.body).toBe(200);
    const client = await connect({ authorization: `Bearer ${key}` });
    expect(failed(await call(client, MCP_TOOLS.rotatePort, { id: bought.json().data.modems[0]._id }))).toContain('(SHARED_PORT_ROTATION)');
  });

  it('answers invalid input with a tool error naming the field', async () => {
    const client = await connect({ authorization: `Bearer ${key}` });
    const bad = failed(await call(client, MCP_TOOLS.buyPorts, { tariff_id: 'nope', country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 500 }));
    expect(bad).toMatch(/tariff_id/);
    expect(bad).toMatch(/modemCount/);
    expect(failed(await call(client, MCP_TOOLS.rotatePort, {}))).toMatch(/id/);
  });

  it('refuses a request without a valid API key with 401; a session cookie is not enough', async () => {
    const initialize = {
      jsonrpc: '2.0', id: 1, method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
    };
    const post = (headers: Record<string, string>) => fetch(`${base}/mcp`, {
      method: 'POST', body: JSON.stringify(initialize),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    });
    // No bearer key says how to send one; a wrong one says it is invalid (issue 27, item 11).
    const refused: Array<[Record<string, string>, string]> = [[{}, 'API_KEY_REQUIRED'], [{ authorization: 'Bearer cpk_wrong' }, 'API_KEY_INVALID'],
      [{ authorization: key }, 'API_KEY_REQUIRED'], [{ cookie: demo.cookie }, 'API_KEY_REQUIRED']];
    for (const [headers, code] of refused) {
      const res = await post(headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const body = await res.json() as { jsonrpc: string; error: { code: number; message: string; data: { code: string } } };
      expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: -32001, data: { code } } });
      expect(body.error.message).toMatch(code === 'API_KEY_REQUIRED' ? /Authorization: Bearer/ : /Invalid API key/);
    }
    expect((await post({ authorization: `Bearer ${key}` })).status).toBe(200);
    await expect(connect({ authorization: 'Bearer cpk_wrong' })).rejects.toMatchObject({ code: 401 });
    // A revoked key stops at once.
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', ...json(demo.cookie, { name: 'short-lived' }) });
    const { data, key: other } = created.json() as { data: { _id: string }; key: string };
    expect((await post({ authorization: `Bearer ${other}` })).status).toBe(200);
    await t.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${data._id}`, ...json(demo.cookie) });
    expect((await post({ authorization: `Bearer ${other}` })).status).toBe(401);
  });
});
