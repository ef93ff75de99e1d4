import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FINGERPRINT_PRESETS, type FingerprintEchoResult } from '@cellport/shared/fingerprint-presets';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCustomer, json, type Customer } from './fixtures.js';
import { seedCatalog } from '../src/db/seed/catalog.js';
import { APPLY_WAIT_MS } from '../src/modules/hosts/index.js';
import { buildTestApp, type TestApp } from './helpers.js';
import { buyUsPorts, hostKeyOfModem, spawnAgent, type BoughtPort } from './agent-fixtures.js';

// Issue 30, item 5, "what a site sees", through a real agent process: the server opens a CONNECT tunnel on the
// customer's port with the port's own login, and the fingerprint echo at the other end answers what it saw. The echo
// here is a small fake on 127.0.0.1 speaking the contract (fingerprintEchoResultSchema): it reports the address the
// connection really came from and a Linux SYN (it reads no packets; the real echo with p0f is h/fphost's, tested in
// its namespace test). It can also stay silent or answer out of contract, so the check's failures are tested too.

/** The agent's ports listen on an address of their own, so this file may run beside the other process tests. */
const LISTEN = '127.0.0.6';
let t: TestApp;
let agent: ChildProcess | null = null;
let agentDir = '';
let echo: Server;
let mode: 'answer' | 'silent' | 'garbage' = 'answer';
const held: Socket[] = [];
let alice: Customer;
let port: BoughtPort;
/** A second customer's port on the same host: their own allowance of checks a minute. */
let bob: Customer;
let bobPort: BoughtPort;

const linux = FINGERPRINT_PRESETS.native;
function echoAnswer(remote: string): FingerprintEchoResult {
  return {
    ip: remote, ttl: 64, initialTtl: 64, window: linux.window, windowScale: linux.windowScale, mss: linux.mss,
    options: [...linux.options], p0f: { signature: linux.p0f.signature, label: 'Linux 3.11 and newer' }, ja4t: linux.ja4t,
  };
}

const patch = (who: Customer, body: unknown) => t.app.inject({ method: 'PATCH', url: `/api/v1/modems/${port._id}`, ...json(who.cookie, body) });
const check = (who: Customer) => t.app.inject({ method: 'POST', url: `/api/v1/modems/${port._id}/fingerprint-check`, ...json(who.cookie) });

/** Whether the port carries a tunnel yet (the agent process has started and has its state). */
async function tunnelOpens(): Promise<true | undefined> {
  const socket = connect(port.http_port, LISTEN);
  socket.on('error', () => {});
  const auth = Buffer.from(`${port.login}:${port.password}`).toString('base64');
  const echoPort = (echo.address() as AddressInfo).port;
  socket.write(`CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\nHost: 127.0.0.1:${echoPort}\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`);
  const [chunk] = await Promise.race([once(socket, 'data') as Promise<[Buffer]>, once(socket, 'close').then(() => [Buffer.alloc(0)] as [Buffer])]);
  socket.destroy();
  return chunk.toString('latin1').startsWith('HTTP/1.1 200') ? true : undefined;
}

/** Whether a connection to address:port is established on this machine (/proc/net/tcp, state 01), accepted or not. */
function queuedAt(address: string, port: number): boolean {
  const hex = (n: number, width: number) => n.toString(16).toUpperCase().padStart(width, '0');
  const local = `${address.split('.').map(Number).reverse().map((b) => hex(b, 2)).join('')}:${hex(port, 4)}`;
  return readFileSync('/proc/net/tcp', 'utf8').split('\n').some((line) => {
    const fields = line.trim().split(/\s+/);
    return fields[1] === local && fields[3] === '01';
  });
}

describe('the fingerprint check through a real agent', () => {
  beforeAll(async () => {
    echo = createServer((socket) => {
      let request = '';
      socket.on('error', () => {});
      socket.on('data', (chunk: Buffer) => {
        request += chunk.toString('latin1');
        if (!request.includes('\r\n\r\n')) return;
        if (mode === 'silent') return void held.push(socket);
        const body = mode === 'garbage' ? '{"ip": 1}' : JSON.stringify(echoAnswer(socket.remoteAddress!.replace(/^::ffff:/, '')));
        socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
      });
    });
    echo.listen(0, '127.0.0.1');
    await once(echo, 'listening');

    t = await buildTestApp({
      MODEM_CONTROL: 'agent', FINGERPRINT_ECHO_URL: `http://127.0.0.1:${(echo.address() as AddressInfo).port}/`, FINGERPRINT_CHECK_TIMEOUT_MS: '1500',
    });
    await seedCatalog(t.ctx);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    alice = await createCustomer(t, 1000);
    [port] = await buyUsPorts(t, alice, 1) as [BoughtPort];
    bob = await createCustomer(t, 1000);
    [bobPort] = await buyUsPorts(t, bob, 1) as [BoughtPort];
    // Customers reach the host at its address: here, the loopback address the agent listens on.
    const modem = await t.ctx.db.selectFrom('modems').select('host_id').where('imei', '=', port.IMEI).executeTakeFirstOrThrow();
    await t.ctx.db.updateTable('hosts').set({ address: LISTEN }).where('id', '=', modem.host_id).execute();
    agentDir = await mkdtemp(join(tmpdir(), 'cellport-fingerprint-agent-'));
    agent = spawnAgent({
      serverUrl: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`, hostKey: await hostKeyOfModem(t, port.IMEI),
      dataDir: agentDir, listenHost: LISTEN,
    });
    // Waiting for an outside process to start (docs/testing.md): the port opens tunnels once the agent has its state.
    await vi.waitFor(async () => { if (!(await tunnelOpens())) throw new Error('the port does not open tunnels yet'); }, { timeout: 60_000, interval: 150 });
  }, 120_000);

  afterAll(async () => {
    agent?.kill('SIGKILL');
    for (const s of held) s.destroy();
    await t?.close();
    echo?.close();
    if (agentDir) await rm(agentDir, { recursive: true, force: true });
  });

  it('shows what the echo saw of a connection made through the port, against the port\'s preset', async () => {
    const res = await check(alice);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    // The echo saw the connection arrive from the modem's own address (the agent sends from it), not from the server.
    expect(body.seen.ip).toBe(port.ext_ip);
    expect(body.seen.ip).not.toBe('127.0.0.1');
    expect(body.preset).toBe('native');
    expect(body.matches).toBe(true);
    expect(body.fields.find((f: { field: string }) => f.field === 'ttl')).toMatchObject({ expected: '64', seen: '64', matches: true, decisive: true });
  });

  it('fails cleanly when the echo answers out of contract, or not at all within the time allowed', async () => {
    mode = 'garbage';
    const garbage = await check(alice);
    expect(garbage.statusCode).toBe(502);
    expect(garbage.json()).toMatchObject({ code: 'FINGERPRINT_CHECK_FAILED', reason: expect.stringMatching(/out of contract/) });
    mode = 'silent';
    const started = Date.now();
    const silent = await check(alice);
    expect(silent.statusCode).toBe(502);
    expect(silent.json()).toMatchObject({ code: 'FINGERPRINT_CHECK_FAILED', reason: 'no answer within 1500 ms' });
    expect(Date.now() - started).toBeLessThan(10_000);
    mode = 'answer';
  });

  // Issue 30: a change (a preset, here a password, which a fake echo can tell without root) made a moment before the
  // check is what the check goes through: it waits until the host's agent serves the state holding it. Before, the
  // check connected at once with the new password while the agent still served the old one (a 407, so a 502 here).
  it('goes through the port as just changed: it waits for the agent to serve the change', async () => {
    const patched = await patch(alice, { password: 'NewPassword-30a' });
    expect(patched.statusCode, patched.body).toBe(200);
    port.password = 'NewPassword-30a';
    const res = await check(alice);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().seen.ip).toBe(port.ext_ip);
  });

  it('says the change is still being applied when the agent does not serve it within 3 s, and goes through once it does', async () => {
    // The agent cannot apply anything while stopped: its state arrives, unread, and no heartbeat reports it.
    agent!.kill('SIGSTOP');
    try {
      expect((await patch(alice, { password: 'NewPassword-30b' })).statusCode).toBe(200);
      port.password = 'NewPassword-30b';
      const started = Date.now();
      const res = await check(alice);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ code: 'FINGERPRINT_STILL_APPLYING', retryAfter: 3, error: expect.stringMatching(/still being applied.*try again in a few seconds/i) });
      expect(Date.now() - started).toBeGreaterThanOrEqual(APPLY_WAIT_MS);
    } finally {
      agent!.kill('SIGCONT');
    }
    // Resumed, the agent applies the state it received and reports it: the next check waits for that, not for time.
    const res = await check(alice);
    expect(res.statusCode, res.body).toBe(200);
  });

  // Issue 30: one customer must not disrupt another. Alice's change on the same host is not served yet (the agent is
  // stopped, as busy as an agent gets); Bob's port did not change, so his check waits for nothing: the agent reports
  // each port's digest, and his is served. Before, the check waited for the host's whole state (Alice's change in it)
  // and said "still being applied" after 3 s, without ever connecting. (Bob checks: Alice has used her 6 a minute.)
  it('a neighbour\'s change on the same host, not yet served, does not hold another customer\'s check', async () => {
    agent!.kill('SIGSTOP');
    let pending: Promise<Awaited<ReturnType<typeof check>>> | undefined;
    try {
      expect((await patch(alice, { password: 'NewPassword-30n' })).statusCode).toBe(200);
      port.password = 'NewPassword-30n';
      // inject() sends once it is awaited: `then` starts it.
      pending = t.app.inject({ method: 'POST', url: `/api/v1/modems/${bobPort._id}/fingerprint-check`, ...json(bob.cookie) }).then((r) => r);
      // The check went past the wait: its tunnel reached the agent's port (the kernel completes the handshake for a
      // stopped process; the connection waits in the listener's queue).
      await vi.waitFor(() => { if (!queuedAt(LISTEN, bobPort.http_port)) throw new Error('the check has not connected to the port'); }, { timeout: 10_000, interval: 50 });
    } finally {
      agent!.kill('SIGCONT');
    }
    const res = await pending;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().seen.ip).toBe(bobPort.ext_ip);
  });

  // Before, a port on an offline host waited the whole 3 s for a state no agent would report, then said "still being
  // applied"; the customer hears at once that the modem is offline (the web app shows the code in en, ru and cn).
  it('says at once that the modem is offline when the host\'s agent is gone, even with a change pending', async () => {
    agent!.kill('SIGKILL');
    await once(agent!, 'exit');
    agent = null;
    // The server marks the host's modems offline when its agent's connection ends.
    await vi.waitFor(async () => {
      const modem = await t.ctx.db.selectFrom('modems').select('online').where('imei', '=', bobPort.IMEI).executeTakeFirstOrThrow();
      if (modem.online) throw new Error('the modem is still online');
    }, { timeout: 30_000, interval: 100 });
    // A change the agent will not report serving (it is gone): the old check waited 3 s for it.
    const changed = await t.app.inject({ method: 'PATCH', url: `/api/v1/modems/${bobPort._id}`, ...json(bob.cookie, { password: 'NewPassword-30c' }) });
    expect(changed.statusCode, changed.body).toBe(200);
    const started = Date.now();
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/modems/${bobPort._id}/fingerprint-check`, ...json(bob.cookie) });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toMatchObject({ code: 'MODEM_OFFLINE', error: expect.stringMatching(/modem is offline/i) });
    expect(Date.now() - started).toBeLessThan(APPLY_WAIT_MS);
  });
});
