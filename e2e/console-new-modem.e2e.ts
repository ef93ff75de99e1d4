// Issue 15 in the operator console: a stand-alone agent with a modems file reports a HiLink dongle the inventory does
// not know; Inventory → Hosts shows it as new on that host (IMEI, model, operator, signal, network type, IP) and the
// operator adds it from there without typing an IMEI; it then shows among the host's modems with its report.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FakeHilink, startEchoServer } from '../apps/agent/src/runtime/drivers/hilink/fake-hilink.js';
import { useBrowser, visitCheck } from './support/browser.js';
import { createOperator, signIn } from './support/flows.js';
import { t } from './support/locales.js';
import { repoRoot, useServer } from './support/server.js';

const server = useServer({ name: 'console-new-modem', env: { EMBEDDED_AGENT: 'false' } });
const browser = useBrowser();
const operator = { email: 'new-modem-ops@cellport.test', password: '' };
const IMEI = '867123456789012';
const cleanup: Array<() => Promise<unknown> | void> = [];
let agent: ChildProcess | null = null;

beforeAll(async () => {
  Object.assign(operator, await createOperator(server, operator.email));
}, 120_000);
afterAll(async () => {
  agent?.kill('SIGKILL');
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const a = (key: string, values?: Record<string, string | number>) => t('en', `admin:${key}`, values);

async function call<T>(request: APIRequestContext, method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const response = await request.fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: data === undefined ? { origin: server.url } : { origin: server.url, 'content-type': 'application/json' },
    ...(data === undefined ? {} : { data }),
  });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
  return (await response.json()) as T;
}

describe('a modem new on a host, added from the console', () => {
  test('shows the reported dongle as new on its host and adds it to the inventory', async () => {
    const { page, context } = browser;
    await signIn(page, server.url, 'en', operator, { redirect: '/en/admin' });
    await page.waitForURL(`${server.url}/en/admin`);

    // The host and its key, then its agent with one fake HiLink dongle in the modems file.
    const host = (await call<{ host: { id: string } }>(context.request, 'POST', '/admin/hosts', { name: 'rack-e2e', address: '127.0.0.1' })).host;
    const { key } = await call<{ key: string }>(context.request, 'POST', `/admin/hosts/${host.id}/key`);
    const dongle = new FakeHilink({ imei: IMEI, publicIp: '203.0.113.10' });
    await dongle.start();
    cleanup.push(() => dongle.stop());
    const echo = await startEchoServer(new Map([['127.0.0.11', () => dongle.publicIp]]));
    cleanup.push(() => echo.close());
    const dir = await mkdtemp(join(tmpdir(), 'cellport-e2e-modems-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'modems.yaml'), `modems:\n  - driver: hilink\n    name: slot-1\n    management: ${dongle.url}\n    egress: 127.0.0.11\n`);
    agent = spawn(process.execPath, ['--import', 'tsx', 'apps/agent/src/main.ts'], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH, CELLPORT_SERVER_URL: server.url, CELLPORT_HOST_KEY: key, AGENT_DATA_DIR: join(dir, 'data'),
        AGENT_MODEMS: join(dir, 'modems.yaml'), AGENT_IP_ECHO_URLS: echo.url, AGENT_LISTEN_HOST: '127.0.0.1', AGENT_ALLOW_LOOPBACK: 'true',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });

    await page.goto(`${server.url}/en/admin/inventory/hosts`);
    const newOn = page.getByRole('region', { name: a('hosts.newOn', { name: 'rack-e2e' }) });
    // The page refetches every heartbeat interval: the agent's first heartbeat brings the dongle in.
    await newOn.waitFor({ timeout: 30_000 });
    const row = newOn.getByRole('row', { name: new RegExp(IMEI) });
    for (const text of ['slot-1', 'E3372h-320', 'Vodafone DE', '4G', '203.0.113.10']) await row.getByText(text).first().waitFor();
    await row.getByText(/RSRP/).waitFor();
    await visitCheck(page, 'console-host-new-modem-en');

    await row.getByRole('button', { name: a('hosts.addNamed', { imei: IMEI }) }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: a('hosts.adoptTitle', { imei: IMEI, name: 'rack-e2e' }) }).waitFor();
    // The IMEI is shown, never typed.
    await expect.poll(() => dialog.getByRole('textbox', { name: a('fields.imei') }).count()).toBe(0);
    await dialog.getByText(IMEI, { exact: true }).waitFor();
    await dialog.getByLabel(a('fields.carrier')).selectOption({ index: 1 });
    await visitCheck(page, 'console-host-add-modem-dialog-en');
    await dialog.getByRole('button', { name: a('hosts.addToInventory') }).click();
    await page.locator('[data-sonner-toast]', { hasText: a('hosts.adopted') }).first().waitFor();

    // No longer new: it is one of the host's modems, with its model and operator from the report.
    await newOn.waitFor({ state: 'detached' });
    const modems = page.getByRole('region', { name: a('hosts.modemsOf', { name: 'rack-e2e' }) });
    const known = modems.getByRole('row', { name: new RegExp(IMEI) });
    await known.getByText('E3372h-320').waitFor();
    await known.getByText(/Vodafone DE/).waitFor();
    await known.getByText('30000 / 30001').waitFor();
    await visitCheck(page, 'console-host-modem-added-en');
  });
});
