import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { hostname } from 'node:os';
import { io as ioClient } from 'socket.io-client';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { REALTIME_PATH } from '@cellport/shared/schemas/realtime';
import { seedCatalog } from '../src/db/seed/catalog.js';
import { JOBS } from '../src/jobs/job-kinds.js';
import { within } from './announcements.js';
import { createCustomer, json } from './fixtures.js';
import { describeOnPostgres, type TestApp } from './helpers.js';
import { openProcessTestWorld, type ProcessTestWorld } from './process-test-world.js';
import { serverProcessEnv, spawnServer, watched, type Watched } from './server-process.js';

// Issue 29, item 3 (decision 044): two web instances and one worker, as their own processes, on one PostgreSQL
// database. A due job runs once, on the worker (its row names the worker's process); one scheduled while the worker
// is down waits for it; realtime crosses instances without it (a purchase through web A reaches a socket on web B);
// the worker serves no product route and stops gracefully.

const SECRET = 'worker-role-test-secret-0123456789abcdef';

let world: ProcessTestWorld | undefined;
let t: TestApp;
let dbUrl = '';
let dataDir = '';
const children: ChildProcess[] = [];

const env = (role: 'web' | 'worker') => serverProcessEnv({ dbUrl, secret: SECRET, dataDir }, {
  CELLPORT_ROLE: role, LOG_PRETTY: 'false', UDP_ECHO: 'false',
});

interface Instance { proc: ChildProcess; log: Watched; base: string }

async function start(role: 'web' | 'worker'): Promise<Instance> {
  const proc = spawnServer(env(role));
  children.push(proc);
  const log = watched(proc);
  const listening = await log.line(/Server listening at http:\/\/127\.0\.0\.1:\d+/, `the ${role} listening`);
  if (role === 'worker') await log.line(/Cellport worker is running jobs/, 'the worker ready');
  else await log.line(/Cellport is ready at .*role: web/, 'the web instance ready');
  return { proc, log, base: listening.slice(listening.indexOf('http://')) };
}

const exited = (proc: ChildProcess) => (proc.exitCode !== null ? Promise.resolve(proc.exitCode) : once(proc, 'exit').then(([code]) => code as number | null));

/** Schedules a sweep of unreferenced uploads, due now: a real job kind whose run changes nothing here. */
async function scheduleDueJob(key: string): Promise<void> {
  await t.app.jobs.schedule(t.ctx.db, { kind: JOBS.supportSweepUploads, key, runAt: new Date(), payload: {} });
}

const jobRow = (key: string) => t.ctx.db.selectFrom('jobs').select(['done_at', 'done_by', 'attempts', 'last_error'])
  .where('key', '=', key).executeTakeFirstOrThrow();

async function doneJob(key: string) {
  return vi.waitFor(async () => {
    const row = await jobRow(key);
    if (!row.done_at) throw new Error(`job ${key} not done yet`);
    return row;
  }, { timeout: 60_000, interval: 100 });
}

describeOnPostgres('roles: two web instances and one worker on one database', () => {
  beforeAll(async () => {
    // The in-process app (no timers: it runs no job) makes the catalog and customers and schedules the jobs.
    world = await openProcessTestWorld({ name: 'worker-role', env: (paths) => { ({ dbUrl, dataDir } = paths); return { ...env('web'), CELLPORT_ROLE: 'all' }; } });
    ({ t } = world);
    await seedCatalog(t.ctx);
  }, 180_000);

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await world?.cleanup();
  });

  it('jobs run once on the worker, wait while it is down; realtime crosses web instances without it', async () => {
    const [webA, webB, worker] = await Promise.all([start('web'), start('web'), start('worker')]);

    // The worker serves health and metrics, not the product; the web instances serve it.
    expect((await fetch(`${worker.base}/readyz`)).status).toBe(200);
    expect((await fetch(`${worker.base}/api/v1/countries`)).status).toBe(404);
    expect((await fetch(`${webA.base}/api/v1/countries`)).status).toBe(200);

    // A due job runs on the worker, once.
    await scheduleDueJob('worker-role:first');
    const first = await doneJob('worker-role:first');
    expect(first).toMatchObject({ done_by: `worker@${hostname()}:${worker.proc.pid}`, attempts: 1, last_error: null });

    // The worker stops gracefully (a job in hand would finish first) and exits 0.
    worker.proc.kill('SIGTERM');
    expect(await within(exited(worker.proc), 60_000, `the worker exiting:\n${worker.log.output()}`)).toBe(0);
    expect(worker.log.output()).toMatch(/shutdown 4\/4: database closed; exiting 0/);

    // While it is down: a due job waits, and realtime still crosses the web instances.
    await scheduleDueJob('worker-role:while-down');
    const customer = await createCustomer(t, 1000);
    const token = ((await (await fetch(`${webB.base}/api/v1/token`, { headers: { cookie: customer.cookie } })).json()) as { token: string }).token;
    const socket = ioClient(webB.base, { path: REALTIME_PATH, auth: { token }, transports: ['websocket'], reconnection: false });
    try {
      await within(new Promise<void>((resolve) => socket.once('connect', () => resolve())), 20_000, 'the realtime socket on web B connecting');
      const notification = new Promise<{ type: string; unread: boolean }>((resolve) => socket.once('notification', resolve));
      const us = await t.ctx.db.selectFrom('countries').select('id').where('code', '=', 'US').executeTakeFirstOrThrow();
      const tariff = await t.ctx.db.selectFrom('tariffs').select('id').where('country_id', '=', us.id).where('is_shared', '=', false)
        .where('period', '=', 'month').executeTakeFirstOrThrow();
      const bought = await fetch(`${webA.base}/api/v1/payment/balance/buy`, {
        method: 'POST',
        body: JSON.stringify({ tariff_id: tariff.id, country_id: us.id, isShared: false, rotationInterval: 0, modemCount: 1 }),
        headers: { ...json(customer.cookie).headers, 'content-type': 'application/json' },
      });
      expect(bought.status, await bought.clone().text()).toBe(200);
      // The purchase's notification, committed through web A, announced by the database, pushed by web B.
      const heard = await within(notification, 30_000, 'the notification of a purchase through web A on web B');
      expect(heard).toMatchObject({ type: 'payment', unread: true });
    } finally {
      socket.close();
    }
    // Many polls of the web instances' JOBS_POLL_MS have passed since it was due: none of them ran it.
    expect(await jobRow('worker-role:while-down')).toMatchObject({ done_at: null, done_by: null, attempts: 0 });

    // The worker comes back and runs it.
    const again = await start('worker');
    const waited = await doneJob('worker-role:while-down');
    expect(waited).toMatchObject({ done_by: `worker@${hostname()}:${again.proc.pid}`, attempts: 1, last_error: null });
    // No job of any kind ran on a web instance.
    const byWeb = await t.ctx.db.selectFrom('jobs').select('key').where('done_by', 'like', 'web@%').execute();
    expect(byWeb).toEqual([]);

    for (const { proc } of [webA, webB, again]) proc.kill('SIGTERM');
    for (const { proc, log } of [webA, webB, again]) expect(await within(exited(proc), 60_000, `an instance exiting:\n${log.output()}`)).toBe(0);
  }, 300_000);
});
