import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, describeOnPostgres, type TestApp } from '../../../test/helpers.js';
import { expectLedgerMatchesBalances } from '../ledger/ledger.test-helpers.js';
import { createCustomer, json, seedTestCatalog, type Customer } from '../../../test/fixtures.js';
import { MODEM_ROTATION_JOB, PORT_ROTATION_JOB } from './interval-rotation.js';

const MIN = 60_000;
let t: TestApp;
let cat: Awaited<ReturnType<typeof seedTestCatalog>>;
async function start(env: Record<string, string> = {}) {
  t = await buildTestApp({ MODEM_CONTROL: 'simulated', MODEM_SIM_DELAY_MS: '20', MODEM_SIM_SAME_IP_RATE: '0', ...env });
  cat = await seedTestCatalog(t);
}
afterEach(async () => {
  await expectLedgerMatchesBalances(t.ctx.db);
  await t.close();
});

async function buy(c: Customer, body: { isShared: boolean; rotationInterval: number }) {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(c.cookie, {
    tariff_id: body.isShared ? cat.sharedMonth.id : cat.dedicatedMonth.id, country_id: cat.usId, modemCount: 1, ...body,
  }) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.modems[0] as { _id: string; IMEI: string; ext_ip: string; expiresAt: string };
}
const portRow = (id: string) => t.ctx.db.selectFrom('ports').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const modemOf = async (portId: string) => t.ctx.db.selectFrom('modems').selectAll()
  .where('id', '=', (await portRow(portId)).modem_id).executeTakeFirstOrThrow();
const pendingLinks = (kind: string = PORT_ROTATION_JOB) => t.ctx.db.selectFrom('jobs').select(['run_at', 'payload'])
  .where('kind', '=', kind).where('done_at', 'is', null).orderBy('run_at').execute();
const patch = (c: Customer, id: string, body: unknown) =>
  t.app.inject({ method: 'PATCH', url: `/api/v1/modems/${id}`, ...json(c.cookie, body) });
/** The job clock travels with `runDueJobs(now)`; the per-minute cooldown reads the database clock, so age it too. */
const ageLastRotation = (portId: string, modemId: string) => Promise.all([
  t.ctx.db.updateTable('ports').set({ last_rotated_at: sql`now() - interval '2 minutes'` }).where('id', '=', portId).execute(),
  t.ctx.db.updateTable('modems').set({ last_rotated_at: sql`now() - interval '2 minutes'` }).where('id', '=', modemId).execute(),
]);

describe('automatic rotation by interval (dedicated ports)', () => {
  beforeEach(() => start());

  it('rotates when the interval has passed, through the rotation service, and schedules the next link', async () => {
    const c = await createCustomer(t, 1000);
    const p = await buy(c, { isShared: false, rotationInterval: 5 });
    const bought = (await portRow(p._id)).created_at.getTime();
    const events: Array<{ applyStatus: string; ext_ip: string }> = [];
    t.ctx.bus.on('modem:status', (e) => events.push(e as { applyStatus: string; ext_ip: string }));

    await t.app.jobs.runDueJobs(new Date(bought + 4 * MIN));
    expect((await modemOf(p._id)).ext_ip).toBe(p.ext_ip); // not yet due
    expect((await pendingLinks()).map((j) => j.run_at.getTime())).toEqual([bought + 5 * MIN]);

    await t.app.jobs.runDueJobs(new Date(bought + 5 * MIN));
    const modem = await modemOf(p._id);
    expect(modem.ext_ip).not.toBe(p.ext_ip);
    expect(modem.apply_status).toBe('idle');
    expect((await portRow(p._id)).last_rotated_at).not.toBeNull();
    expect(events.at(-1)).toMatchObject({ applyStatus: 'idle', ext_ip: modem.ext_ip });
    expect((await pendingLinks()).map((j) => j.run_at.getTime())).toEqual([bought + 10 * MIN]);

    await ageLastRotation(p._id, modem.id);
    await t.app.jobs.runDueJobs(new Date(bought + 10 * MIN));
    expect((await modemOf(p._id)).ext_ip).not.toBe(modem.ext_ip);
    expect((await pendingLinks()).map((j) => j.run_at.getTime())).toEqual([bought + 15 * MIN]);
  });

  it('stops at 0 and moves to the new interval when it changes', async () => {
    const c = await createCustomer(t, 1000);
    const p = await buy(c, { isShared: false, rotationInterval: 5 });
    const bought = (await portRow(p._id)).created_at.getTime();
    await t.app.jobs.runDueJobs(new Date(bought)); // plans the chain
    expect(await pendingLinks()).toHaveLength(1);

    expect((await patch(c, p._id, { rotationInterval: 0 })).statusCode).toBe(200);
    await t.app.jobs.runDueJobs(new Date(bought + 60 * MIN));
    expect((await modemOf(p._id)).ext_ip).toBe(p.ext_ip);
    expect(await pendingLinks()).toHaveLength(0);
    expect((await portRow(p._id)).rotation_due_at).toBeNull();

    const before = Date.now();
    const res = await patch(c, p._id, { rotationInterval: 10 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rotationInterval).toBe(10);
    const [link] = await pendingLinks();
    // Never rotated: now + 10 minutes.
    expect(link!.run_at.getTime()).toBeGreaterThanOrEqual(before + 10 * MIN);
    expect(link!.run_at.getTime()).toBeLessThan(Date.now() + 10 * MIN + 1);
    await t.app.jobs.runDueJobs(new Date(link!.run_at.getTime() - 1000));
    expect((await modemOf(p._id)).ext_ip).toBe(p.ext_ip);
    await t.app.jobs.runDueJobs(link!.run_at);
    expect((await modemOf(p._id)).ext_ip).not.toBe(p.ext_ip);
    expect((await pendingLinks()).map((j) => j.run_at.getTime())).toEqual([link!.run_at.getTime() + 10 * MIN]);
  });

  it('a superseded link does nothing: 5 → 10 leaves one chain, on the 10-minute cadence', async () => {
    const c = await createCustomer(t, 1000);
    const p = await buy(c, { isShared: false, rotationInterval: 5 });
    const bought = (await portRow(p._id)).created_at.getTime();
    await t.app.jobs.runDueJobs(new Date(bought));
    expect((await patch(c, p._id, { rotationInterval: 10 })).statusCode).toBe(200);
    // The old link (due at +5) is still in the table but no longer the port's due time.
    await t.app.jobs.runDueJobs(new Date(bought + 6 * MIN));
    expect((await modemOf(p._id)).ext_ip).toBe(p.ext_ip);
    const links = await pendingLinks();
    expect(links).toHaveLength(1);
    expect(links[0]!.run_at.getTime()).toBeGreaterThanOrEqual(bought + 10 * MIN);
  });

  it('does not rotate an expired port and ends its chain; a renewal starts it again', async () => {
    const c = await createCustomer(t, 1000);
    const p = await buy(c, { isShared: false, rotationInterval: 5 });
    const exp = Date.parse(p.expiresAt);
    await t.app.jobs.runDueJobs(new Date((await portRow(p._id)).created_at.getTime()));
    await t.app.jobs.runDueJobs(new Date(exp + 1000));
    expect((await portRow(p._id)).status).toBe('expired');
    expect((await modemOf(p._id)).ext_ip).toBe(p.ext_ip);
    expect(await pendingLinks()).toHaveLength(0);
    expect((await portRow(p._id)).rotation_due_at).toBeNull();

    const renew = await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/renew', ...json(c.cookie, { basket: { [p._id]: { periods: 1 } } }) });
    expect(renew.statusCode, renew.body).toBe(200);
    await t.app.jobs.runDueJobs(new Date(exp + 2000));
    // Never rotated and bought long ago: the first link of the new term is due at once.
    expect((await modemOf(p._id)).ext_ip).not.toBe(p.ext_ip);
    expect(await pendingLinks()).toHaveLength(1);
  });

  it('a rotation that fails notifies and keeps the chain', async () => {
    const c = await createCustomer(t, 1000);
    const p = await buy(c, { isShared: false, rotationInterval: 5 });
    const bought = (await portRow(p._id)).created_at.getTime();
    // The modem goes offline: the service refuses, the next link is still scheduled.
    await t.ctx.db.updateTable('modems').set({ online: false }).where('id', '=', (await portRow(p._id)).modem_id).execute();
    await t.app.jobs.runDueJobs(new Date(bought + 5 * MIN));
    expect((await modemOf(p._id)).ext_ip).toBe(p.ext_ip);
    expect((await pendingLinks()).map((j) => j.run_at.getTime())).toEqual([bought + 10 * MIN]);
    await t.ctx.db.updateTable('modems').set({ online: true }).where('id', '=', (await portRow(p._id)).modem_id).execute();
    await t.app.jobs.runDueJobs(new Date(bought + 10 * MIN));
    expect((await modemOf(p._id)).ext_ip).not.toBe(p.ext_ip);
    expect((await pendingLinks()).map((j) => j.run_at.getTime())).toEqual([bought + 15 * MIN]);
  });
});

describe('automatic rotation: failures and shared modems', () => {
  it('a modem that keeps its IP fails the rotation, notifies the customer, and the chain goes on', async () => {
    await start({ MODEM_SIM_SAME_IP_RATE: '1' });
    const c = await createCustomer(t, 1000);
    const p = await buy(c, { isShared: false, rotationInterval: 5 });
    const bought = (await portRow(p._id)).created_at.getTime();
    await t.app.jobs.runDueJobs(new Date(bought + 5 * MIN));
    expect((await modemOf(p._id)).apply_status).toBe('failed');
    const notes = await t.ctx.db.selectFrom('notifications').select('text_key').where('user_id', '=', c.id).execute();
    expect(notes.map((n) => n.text_key)).toContain('rotation_failed');
    expect((await pendingLinks()).map((j) => j.run_at.getTime())).toEqual([bought + 10 * MIN]);
  });

  it('a shared modem rotates once per its fixed interval for all its customers', async () => {
    await start();
    const a = await createCustomer(t, 1000);
    const b = await createCustomer(t, 1000);
    const pa = await buy(a, { isShared: true, rotationInterval: 10 });
    const pb = await buy(b, { isShared: true, rotationInterval: 10 });
    const modem = await modemOf(pa._id);
    expect((await modemOf(pb._id)).id).toBe(modem.id);
    expect((await patch(a, pa._id, { rotationInterval: 5 })).json().code).toBe('SHARED_ROTATION_FIXED');

    const planned = Date.now();
    await t.app.jobs.runDueJobs(new Date(planned));
    expect(await pendingLinks()).toHaveLength(0); // no per-port chains for shared ports
    const [link] = await pendingLinks(MODEM_ROTATION_JOB);
    expect(link!.payload).toMatchObject({ modemId: modem.id });
    const events: Array<{ userIds: string[]; applyStatus: string }> = [];
    t.ctx.bus.on('modem:status', (e) => events.push(e as { userIds: string[]; applyStatus: string }));

    await t.app.jobs.runDueJobs(link!.run_at);
    const rotated = await modemOf(pa._id);
    expect(rotated.ext_ip).not.toBe(modem.ext_ip);
    expect(events.filter((e) => e.applyStatus === 'idle')).toHaveLength(1);
    expect(new Set(events.at(-1)!.userIds)).toEqual(new Set([a.id, b.id]));
    const next = await pendingLinks(MODEM_ROTATION_JOB);
    expect(next.map((j) => j.run_at.getTime())).toEqual([link!.run_at.getTime() + 10 * MIN]);
  });
});

describeOnPostgres('automatic rotation', () => {
  beforeEach(() => start());

  it('two instances running due jobs at once rotate the port once', async () => {
    const c = await createCustomer(t, 1000);
    const p = await buy(c, { isShared: false, rotationInterval: 5 });
    const bought = (await portRow(p._id)).created_at.getTime();
    await t.app.jobs.runDueJobs(new Date(bought));
    const rotations: string[] = [];
    t.ctx.bus.on('modem:status', (e) => { if ((e as { applyStatus: string }).applyStatus === 'rotating') rotations.push('r'); });
    const at = new Date(bought + 5 * MIN);
    await Promise.all([t.app.jobs.runDueJobs(at), t.app.jobs.runDueJobs(at), t.app.jobs.runDueJobs(at)]);
    expect((await modemOf(p._id)).ext_ip).not.toBe(p.ext_ip);
    // One rotation publishes 'rotating' twice (claimed, then the driver's first step).
    expect(rotations).toHaveLength(2);
    const done = await t.ctx.db.selectFrom('jobs').select('id').where('kind', '=', PORT_ROTATION_JOB).where('done_at', 'is not', null).execute();
    expect(done).toHaveLength(1);
    expect((await pendingLinks()).map((j) => j.run_at.getTime())).toEqual([bought + 10 * MIN]);
  });
});
