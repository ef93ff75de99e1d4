import type { AddressInfo } from 'node:net';
import { MCP_TOOLS } from '@cellport/shared/schemas/mcp';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createCustomer, json, seedTestCatalog, usdtBalance, type Customer } from '../../../test/fixtures.js';

// Issue 26, item 9: API keys with scopes ('read', 'manage', 'full') and a monthly spending cap; MCP tools that spend
// are marked destructive; each message of a JSON-RPC batch counts against the MCP rate limit. Issue 27, item 11:
// a wrong key says "invalid API key", and the balance is readable with a key.

let t: TestApp;
let base: string;
let alice: Customer;
let portId: string;
let cat: Awaited<ReturnType<typeof seedTestCatalog>>;
const clients: Client[] = [];

beforeAll(async () => {
  t = await buildTestApp({ MODEM_CONTROL: 'simulated', MODEM_SIM_DELAY_MS: '5', MODEM_SIM_SAME_IP_RATE: '0' });
  cat = await seedTestCatalog(t);
  alice = await createCustomer(t, 1000);
  const bought = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(alice.cookie, {
    tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
  }) });
  expect(bought.statusCode, bought.body).toBe(200);
  portId = bought.json().data.modems[0]._id;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await t?.close();
});

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
async function createKey(body: Record<string, unknown>, owner = alice): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', ...json(owner.cookie, { name: 'k', ...body }) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().key as string;
}
async function mcp(key: string): Promise<Client> {
  const client = new Client({ name: 'scope-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: bearer(key) } }));
  clients.push(client);
  return client;
}
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
const errorCode = (res: CallToolResult) => (res.isError ? (res.structuredContent as { code?: string }).code : undefined);
const order = () => ({ tariff_id: cat.dedicatedWeek.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1 });

describe('API key scopes', () => {
  it('a wrong key is "invalid API key", not "please sign in"; the balance reads with a key', async () => {
    const wrong = await t.app.inject({ method: 'GET', url: '/api/v1/modems', headers: bearer('cpk_wrong') });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('API_KEY_INVALID');
    const none = await t.app.inject({ method: 'GET', url: '/api/v1/modems' });
    expect(none.json().code).toBe('UNAUTHORIZED');
    const key = await createKey({ scope: 'read' });
    const account = await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: bearer(key) });
    expect(account.statusCode, account.body).toBe(200);
    expect(BigInt(account.json().usdt.balance)).toBe(await usdtBalance(t, alice.id));
  });

  it('refuses a limit on a key that cannot spend, and a limit that is not whole cents', async () => {
    for (const body of [{ scope: 'read', monthlySpendLimit: '10000000' }, { scope: 'manage', monthlySpendLimit: '10000000' },
      { scope: 'full', monthlySpendLimit: '10000001' }, { scope: 'full', monthlySpendLimit: '12.50' }, { scope: 'admin' }]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/api-keys', ...json(alice.cookie, { name: 'bad', ...body }) });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    await createKey({ scope: 'full', monthlySpendLimit: '12500000' });
    const list = (await t.app.inject({ method: 'GET', url: '/api/v1/api-keys', ...json(alice.cookie) })).json().data;
    expect(list[0]).toMatchObject({ scope: 'full', monthlySpendLimit: '12500000', spentThisMonth: '0' });
  });

  it('a read key reads and changes nothing, on REST and MCP', async () => {
    const key = await createKey({ scope: 'read' });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/modems', headers: bearer(key) })).statusCode).toBe(200);
    for (const [method, url, payload] of [
      ['PATCH', `/api/v1/modems/${portId}`, { modem_name: 'nope' }], ['POST', `/api/v1/modems/${portId}/rotate`, undefined],
      ['POST', `/api/v1/modems/${portId}/rotation-link`, undefined],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: bearer(key), ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('API_KEY_READ_ONLY');
    }
    const client = await mcp(key);
    expect((await call(client, MCP_TOOLS.listPorts)).isError).toBeFalsy();
    expect(errorCode(await call(client, MCP_TOOLS.rotatePort, { id: portId }))).toBe('API_KEY_READ_ONLY');
    expect(errorCode(await call(client, MCP_TOOLS.updatePort, { id: portId, modem_name: 'nope' }))).toBe('API_KEY_READ_ONLY');
    expect(errorCode(await call(client, MCP_TOOLS.buyPorts, order()))).toBe('API_KEY_READ_ONLY');
    const port = await t.ctx.db.selectFrom('ports').select('name').where('id', '=', portId).executeTakeFirstOrThrow();
    expect(port.name).not.toBe('nope');
  });

  it('a manage key changes ports but never spends, not even by turning auto-renew on', async () => {
    const key = await createKey({ scope: 'manage' });
    const renamed = await t.app.inject({ method: 'PATCH', url: `/api/v1/modems/${portId}`, headers: bearer(key), payload: { modem_name: 'managed' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const autoRenew = await t.app.inject({ method: 'PATCH', url: `/api/v1/modems/${portId}`, headers: bearer(key), payload: { autoRenew: true } });
    expect(autoRenew.statusCode).toBe(403);
    expect(autoRenew.json().code).toBe('API_KEY_CANNOT_SPEND');
    const before = await usdtBalance(t, alice.id);
    const client = await mcp(key);
    expect(errorCode(await call(client, MCP_TOOLS.buyPorts, order()))).toBe('API_KEY_CANNOT_SPEND');
    expect(errorCode(await call(client, MCP_TOOLS.renewPorts, { basket: { [portId]: { days: 3 } } }))).toBe('API_KEY_CANNOT_SPEND');
    expect(errorCode(await call(client, MCP_TOOLS.updatePort, { id: portId, autoRenew: true }))).toBe('API_KEY_CANNOT_SPEND');
    expect(await usdtBalance(t, alice.id)).toBe(before);
  });

  it('a full key spends up to its monthly cap; the purchase past it is refused whole', async () => {
    const price = BigInt(cat.dedicatedWeek.price);
    const key = await createKey({ scope: 'full', monthlySpendLimit: String(price * 2n) });
    const client = await mcp(key);
    for (let i = 0; i < 2; i++) expect((await call(client, MCP_TOOLS.buyPorts, order())).isError, `buy ${i}`).toBeFalsy();
    const before = await usdtBalance(t, alice.id);
    const payments = async () => (await t.ctx.db.selectFrom('payments').select('id').where('user_id', '=', alice.id).execute()).length;
    const paymentsBefore = await payments();
    expect(errorCode(await call(client, MCP_TOOLS.buyPorts, order()))).toBe('API_KEY_SPEND_LIMIT');
    expect(await usdtBalance(t, alice.id)).toBe(before);
    expect(await payments()).toBe(paymentsBefore);
    const listed = (await t.app.inject({ method: 'GET', url: '/api/v1/api-keys', ...json(alice.cookie) })).json().data as Array<{ spentThisMonth: string; monthlySpendLimit: string | null }>;
    expect(listed.find((k) => k.monthlySpendLimit === String(price * 2n))?.spentThisMonth).toBe(String(price * 2n));
    // The person on the dashboard is not bound by a key's cap.
    const web = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(alice.cookie, order()) });
    expect(web.statusCode, web.body).toBe(200);
  });

  it('six purchases at once through one capped key cannot pass the cap together', async () => {
    const price = BigInt(cat.dedicatedWeek.price);
    const key = await createKey({ scope: 'full', monthlySpendLimit: String(price * 3n) });
    const results = await Promise.all(Array.from({ length: 6 }, async () => call(await mcp(key), MCP_TOOLS.buyPorts, order())));
    expect(results.filter((r) => !r.isError)).toHaveLength(3);
    expect(results.filter((r) => errorCode(r) === 'API_KEY_SPEND_LIMIT')).toHaveLength(3);
  });

  it('spending tools are marked destructive; reading tools read-only', async () => {
    const { tools } = await (await mcp(await createKey({}))).listTools();
    const hint = (name: string) => tools.find((tool) => tool.name === name)?.annotations;
    expect(hint(MCP_TOOLS.buyPorts)?.destructiveHint).toBe(true);
    expect(hint(MCP_TOOLS.renewPorts)?.destructiveHint).toBe(true);
    expect(hint(MCP_TOOLS.getBalance)?.readOnlyHint).toBe(true);
  });

  it('each message of a JSON-RPC batch counts against the MCP rate limit', async () => {
    // A customer of its own, whose budget no earlier test has used.
    const key = await createKey({ scope: 'read' }, await createCustomer(t));
    const post = (body: unknown) => fetch(`${base}/mcp`, {
      method: 'POST', body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bearer(key) },
    });
    const ping = (id: number) => ({ jsonrpc: '2.0', id, method: 'ping' });
    // 600 calls a minute per customer: one batch of 600 uses them all, so the next single call is refused.
    const batch = await post(Array.from({ length: 600 }, (_, i) => ping(i)));
    expect(batch.status).not.toBe(429);
    const next = await post(ping(1000));
    expect(next.status).toBe(429);
    expect(((await next.json()) as { error: { data: { code: string } } }).error.data.code).toBe('RATE_LIMITED');
  });
});
