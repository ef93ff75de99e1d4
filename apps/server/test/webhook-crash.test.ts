import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { createCustomer, json } from './fixtures.js';
import { describeOnPostgres } from './helpers.js';
import { copyTemplateDatabase } from './template-db.js';
import { verifyDelivery, WebhookReceiver } from './webhook-receiver.js';
import { serverProcessEnv, spawnServer, watched } from './server-process.js';

// Issue 16, "Done when": killing the server mid-retry loses no delivery. The real server runs as its own process
// (its job runner on), a receiver on 127.0.0.1 fails the first attempt, the server is killed with SIGKILL while the
// delivery waits for its retry, a new server process on the same database sends it, and the receiver gets it with the
// same webhook-id, verified with the standardwebhooks package. Then the same while a delivery is in flight: the
// server dies with the receiver holding the request, and the next server sends it again once the lease is over.
// Time does not pass in a test: the retry's due time and the lease are moved to now in the database, as the clock
// would after the backoff (30 s and more) — the only thing the test shortens.

const SECRET = 'webhook-crash-test-secret-0123456789abcdef';

const PATH = '/hooks';
let receiver: WebhookReceiver;
let dbUrl = '';
let dropDatabase: (() => Promise<void>) | undefined;
let direct: DatabaseHandle;
let dataDir = '';
let child: ChildProcess | null = null;
let secret = '';
let endpointId = '';
let cookie = '';

const env = () => serverProcessEnv({ dbUrl, secret: SECRET, dataDir }, { WEBHOOKS_ALLOW_LOOPBACK: 'true' });

/** The server as its own process: the job runner sends deliveries. Resolves when it listens. */
async function startServer(): Promise<ChildProcess> {
  const proc = spawnServer(env());
  await watched(proc).line(/listening|Server listening/i, 'the server process listening');
  return proc;
}

async function kill(proc: ChildProcess | null): Promise<void> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = once(proc, 'exit');
  proc.kill('SIGKILL');
  await exited;
}

const verify = (r: Parameters<typeof verifyDelivery>[1]) => verifyDelivery(secret, r) as { type: string };

describeOnPostgres('webhook deliveries survive a killed server', () => {
  beforeAll(async () => {
    const template = inject('dbTemplate');
    if (template.kind !== 'postgres') throw new Error('needs the PostgreSQL template');
    const copy = await copyTemplateDatabase(template);
    dbUrl = copy.url;
    dropDatabase = copy.drop;
    dataDir = await mkdtemp(join(tmpdir(), 'cellport-webhook-crash-'));
    receiver = await WebhookReceiver.start();

    // The customer and the endpoint are made in-process (no job runner) on the same database and secret.
    const config = loadConfig({ ...env(), NODE_ENV: 'test' } as Record<string, string>);
    const database = await openDatabase({ databaseUrl: dbUrl, dataDir: '', poolSize: 3 });
    const { app, ctx } = await buildApp({ config, database, logger: false });
    await app.ready();
    const customer = await createCustomer({ app, ctx, config, close: async () => {} });
    cookie = customer.cookie;
    const created = await app.inject({ method: 'POST', url: '/api/v1/webhooks', ...json(cookie, { url: `${receiver.url}${PATH}`, eventTypes: ['port.rotated'] }) });
    expect(created.statusCode, created.body).toBe(200);
    ({ secret } = created.json() as { secret: string });
    endpointId = (created.json() as { data: { _id: string } }).data._id;
    await app.close();
    await database.close();
    direct = await openDatabase({ databaseUrl: dbUrl, dataDir: '', poolSize: 2 });
  }, 180_000);

  afterAll(async () => {
    await kill(child);
    await receiver?.stop();
    await direct?.close();
    await dropDatabase?.();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** Queues a test event for the endpoint (as the Account page's button does), straight into the database's rows. */
  async function queueTest(): Promise<string> {
    const config = loadConfig({ ...env(), NODE_ENV: 'test' } as Record<string, string>);
    const database = await openDatabase({ databaseUrl: dbUrl, dataDir: '', poolSize: 2 });
    const { app } = await buildApp({ config, database, logger: false });
    try {
      await app.ready();
      const res = await app.inject({ method: 'POST', url: `/api/v1/webhooks/${endpointId}/test`, ...json(cookie) });
      expect(res.statusCode, res.body).toBeLessThan(300);
    } finally {
      await app.close();
      await database.close();
    }
    const row = await direct.db.selectFrom('webhook_deliveries').select('msg_id').where('endpoint_id', '=', endpointId)
      .orderBy('seq', 'desc').executeTakeFirstOrThrow();
    return row.msg_id;
  }

  const deliveryRow = (msgId: string) => direct.db.selectFrom('webhook_deliveries').select(['status', 'attempts', 'response_status'])
    .where('msg_id', '=', msgId).executeTakeFirstOrThrow();

  it('killed while a delivery waits for its retry: the next server sends it, same webhook-id, signed', async () => {
    receiver.answers.set(PATH, [500]);
    const msgId = await queueTest();
    child = await startServer();
    const first = await receiver.nth(1);
    expect(first.headers['webhook-id']).toBe(msgId);
    // The failed attempt is recorded (pending, to retry later); then the server dies.
    await expect.poll(async () => (await deliveryRow(msgId)), { timeout: 30_000, interval: 50 }).toMatchObject({ status: 'pending', attempts: 1, response_status: 500 });
    await kill(child);

    // The backoff is over (the clock would take 30 s): the new server sends it.
    await direct.db.updateTable('webhook_deliveries').set({ next_attempt_at: new Date() }).where('msg_id', '=', msgId).execute();
    child = await startServer();
    const second = await receiver.nth(2);
    expect(second.headers['webhook-id']).toBe(msgId);
    expect(verify(second).type).toBe('webhook.test');
    await expect.poll(async () => (await deliveryRow(msgId)), { timeout: 30_000, interval: 50 }).toMatchObject({ status: 'succeeded', attempts: 2, response_status: 204 });
    await kill(child);
  }, 300_000);

  it('killed while the receiver holds the request: once the lease is over, the next server sends it again', async () => {
    const before = receiver.received.length;
    receiver.answers.set(PATH, ['hold']);
    const msgId = await queueTest();
    child = await startServer();
    const inFlight = await receiver.nth(before + 1);
    expect(inFlight.headers['webhook-id']).toBe(msgId);
    await kill(child);
    expect(await deliveryRow(msgId)).toMatchObject({ status: 'pending', attempts: 0 });

    // The dead server's lease would end after the timeout and a margin: moved to now.
    await direct.db.updateTable('webhook_deliveries').set({ leased_until: new Date(Date.now() - 1000) }).where('msg_id', '=', msgId).execute();
    child = await startServer();
    const again = await receiver.nth(before + 2);
    expect(again.headers['webhook-id']).toBe(msgId);
    expect(verify(again).type).toBe('webhook.test');
    await expect.poll(async () => (await deliveryRow(msgId)), { timeout: 30_000, interval: 50 }).toMatchObject({ status: 'succeeded', response_status: 204 });
  }, 300_000);
});
