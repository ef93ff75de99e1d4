import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers.js';
import { watched } from './server-process.js';

// What an operator sees when the agent or the gateway cannot do its job (issue 28, items 5 and 6): a wrong host key
// with nothing on disk keeps the agent trying (it exited 0 after a second), and a wrong modems file or a busy port
// stops it with one line that names the setting (they printed stack traces).

const root = new URL('../../../', import.meta.url).pathname;
const WRONG_KEY = 'chk_thisKeyWasNeverIssuedByTheServer0123';
const GATEWAY_ID = '8b0f3c1e-4a5d-4f6e-9b7a-0c1d2e3f4a5b';
const TRUST_KEY = '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo';

let dir = '';
const children: ChildProcess[] = [];

/**
 * An agent or gateway process (from source), its stdout and stderr kept. `supervised`: as `npm run agent|gateway`
 * runs it, under scripts/supervise.mjs behind npm's `sh -c`, in its own process group.
 */
function start(entry: 'main' | 'gateway-main', env: Record<string, string>, supervised = false): { proc: ChildProcess; stderr: () => string } {
  const args = ['--import', 'tsx', `apps/agent/src/${entry}.ts`];
  const script = `import { superviseChild } from './scripts/supervise.mjs'; superviseChild(${JSON.stringify(args)});`;
  const proc = spawn(supervised ? 'sh' : process.execPath, supervised ? ['-c', `${JSON.stringify(process.execPath)} --input-type=module -e ${JSON.stringify(script)}`] : args, {
    cwd: root, env: { PATH: process.env.PATH, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: supervised,
  });
  children.push(proc);
  let err = '';
  proc.stderr!.on('data', (c: Buffer) => { err += c.toString(); });
  return { proc, stderr: () => err };
}

const exitCode = async (proc: ChildProcess) => (proc.exitCode !== null ? proc.exitCode : ((await once(proc, 'exit'))[0] as number | null));

beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'cellport-start-failures-')); });
afterAll(async () => {
  for (const c of children) { try { process.kill(-c.pid!, 'SIGKILL'); } catch { c.kill('SIGKILL'); } }
  await rm(dir, { recursive: true, force: true });
});

describe('an agent whose key the server refuses, with nothing on disk', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => { await t?.close(); });

  // Issue 26, item 13: an agent whose log reader went away crashed on the EPIPE (an unhandled 'error' event) instead
  // of draining and journaling its traffic.
  it('stops gracefully on SIGTERM after the pipe its log went to has closed', async () => {
    const { proc } = start('main', {
      CELLPORT_SERVER_URL: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`, CELLPORT_HOST_KEY: WRONG_KEY,
      AGENT_DATA_DIR: join(dir, 'agent-epipe'), AGENT_LISTEN_HOST: '127.0.0.1',
    });
    await watched(proc).line(/the server refused CELLPORT_HOST_KEY/, 'the agent running');
    proc.stdout!.destroy();
    proc.stderr!.destroy();
    proc.kill('SIGTERM');
    expect(await exitCode(proc)).toBe(0);
  });

  it('keeps trying, more slowly each time, saying why, and stops cleanly on SIGTERM', async () => {
    const { proc } = start('main', {
      CELLPORT_SERVER_URL: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`, CELLPORT_HOST_KEY: WRONG_KEY,
      AGENT_DATA_DIR: join(dir, 'agent'), AGENT_LISTEN_HOST: '127.0.0.1',
    });
    const log = watched(proc);
    // Its first refusal, then a second attempt after the first wait: it did not exit in between.
    await log.line(/the server refused CELLPORT_HOST_KEY[^\n]*trying again in 5 s/, 'the first refusal', 30_000);
    await log.line(/the server refused CELLPORT_HOST_KEY[^\n]*trying again in 10 s/, 'the second attempt, refused again', 30_000);
    expect(proc.exitCode).toBeNull();
    proc.kill('SIGTERM');
    expect(await exitCode(proc)).toBe(0);
    expect(log.output()).toContain('"msg":"stopped');
  });
});

describe('mistakes that stop a process with one line naming the setting', () => {
  let busy: Server;
  let busyPort = 0;
  beforeAll(async () => {
    busy = createServer().listen(0, '127.0.0.1');
    await once(busy, 'listening');
    busyPort = (busy.address() as AddressInfo).port;
  });
  afterAll(() => { busy?.close(); });

  it('a modems file whose management address lacks http://', async () => {
    const file = join(dir, 'modems.yaml');
    await writeFile(file, 'modems:\n  - driver: hilink\n    management: 192.168.8.1\n    egress: eth1\n');
    const { proc, stderr } = start('main', {
      CELLPORT_SERVER_URL: 'http://127.0.0.1:9', CELLPORT_HOST_KEY: WRONG_KEY, AGENT_DATA_DIR: join(dir, 'agent-file'), AGENT_MODEMS: file,
    });
    expect(await exitCode(proc)).toBe(1);
    expect(stderr()).toBe(`The agent cannot start; fix AGENT_MODEMS (${file}):\n`
      + '  modems[0] (hilink 192.168.8.1): management must be the dongle\'s web address, e.g. http://192.168.8.1\n');
  });

  it('a gateway link port another process holds', async () => {
    const { proc, stderr } = start('gateway-main', {
      GATEWAY_ID, GATEWAY_TRUST_KEY: TRUST_KEY, GATEWAY_LINK_HOST: '127.0.0.1', GATEWAY_LINK_PORT: String(busyPort), GATEWAY_LISTEN_HOST: '127.0.0.1',
    });
    expect(await exitCode(proc)).toBe(1);
    expect(stderr()).toBe(`Cannot start: GATEWAY_LINK_PORT 127.0.0.1:${busyPort} is in use by another process (another gateway or agent still running?) (EADDRINUSE)\n`);
  });
});

// Issue 28, item 7: killing the npm of `npm run gateway` left the gateway running.
it('the gateway stops when the npm that ran it is killed', async () => {
  const free = createServer().listen(0, '127.0.0.1');
  await once(free, 'listening');
  const linkPort = String((free.address() as AddressInfo).port);
  await new Promise((r) => free.close(r));
  const { proc } = start('gateway-main', { GATEWAY_ID, GATEWAY_TRUST_KEY: TRUST_KEY, GATEWAY_LINK_HOST: '127.0.0.1', GATEWAY_LINK_PORT: linkPort, GATEWAY_LISTEN_HOST: '127.0.0.1' }, true);
  const log = watched(proc);
  await log.line(/gateway started/, 'the gateway started');
  const ended = once(proc.stdout!, 'end'); // every process that holds the pipe has exited
  proc.kill('SIGKILL'); // npm's shell
  await ended;
  expect(log.output()).toMatch(/"msg":"stopped"/);
}, 60_000);
