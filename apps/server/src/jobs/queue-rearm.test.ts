import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp, itOnPostgres, type TestApp } from '../../test/helpers.js';
import { defineJob } from './job-kinds.js';
import { JobQueue } from './queue.js';

/** A kind of this test's own: the queue's behaviour, not a production job's. */
const REARM_TEST = defineJob('test.rearm', z.object({ n: z.number() }));
const KEY = 'rearm-test:1';

// `schedule(…, { rearmDone: true })` is what planners call every round. It makes a done job due again and leaves a
// pending one as it is, and it must not hide a pending job from another runner's claim while the planner's
// transaction is open (CI once saw two runners end a round with the job run by neither).

describe('JobQueue.schedule with rearmDone', () => {
  let t: TestApp;
  let ran: number[];
  let queue: JobQueue;
  beforeEach(async () => {
    t = await buildTestApp();
    ran = [];
    queue = new JobQueue(t.ctx.db);
    queue.handle(REARM_TEST, async (_tx, payload) => { ran.push(payload.n); });
  });
  afterEach(async () => { await t.close(); });

  const job = (n: number, runAt: Date) => ({ kind: REARM_TEST, key: KEY, runAt, payload: { n } });
  const row = () => t.ctx.db.selectFrom('jobs').select(['run_at', 'payload', 'done_at', 'attempts']).where('key', '=', KEY).executeTakeFirstOrThrow();

  it('makes a done job due again with the new time and payload, and leaves a pending one as it was', async () => {
    const first = new Date(Date.now() - 60_000);
    await queue.schedule(t.ctx.db, job(1, first), { rearmDone: true });
    const later = new Date(first.getTime() + 1000);
    await queue.schedule(t.ctx.db, job(2, later), { rearmDone: true });
    expect(await row()).toMatchObject({ run_at: first, payload: { n: 1 }, done_at: null });

    expect(await queue.runDueJobs()).toBe(1);
    expect((await row()).done_at).not.toBeNull();
    await queue.schedule(t.ctx.db, job(3, later), { rearmDone: true });
    expect(await row()).toMatchObject({ run_at: later, payload: { n: 3 }, done_at: null, attempts: 0 });
    expect(await queue.runDueJobs()).toBe(1);
    expect(ran).toEqual([1, 3]);
  });

  itOnPostgres('another runner claims a pending job while a planner that schedules the same key has not committed', async () => {
    const runAt = new Date(Date.now() - 60_000);
    await queue.schedule(t.ctx.db, job(1, runAt));
    let planned!: () => void;
    const plannerWaits = new Promise<void>((resolve) => { planned = resolve; });
    let release!: () => void;
    const plannerMayCommit = new Promise<void>((resolve) => { release = resolve; });
    const planner = t.ctx.db.transaction().execute(async (tx) => {
      await queue.schedule(tx, job(2, new Date()), { rearmDone: true });
      planned();
      await plannerMayCommit;
    });
    await plannerWaits;
    try {
      // The claim is on another connection; it must see the job as free, not skip it as locked.
      expect(await queue.runDueJobs()).toBe(1);
    } finally {
      release();
      await planner;
    }
    expect(ran).toEqual([1]);
    expect((await row()).done_at).not.toBeNull();
  });
});
