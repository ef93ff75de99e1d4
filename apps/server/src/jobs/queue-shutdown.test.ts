import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers.js';
import { z } from 'zod';
import { defineJob } from './job-kinds.js';
import { JobQueue } from './queue.js';

/** A kind of this test's own: the queue's behaviour, not a production job's. */
const SHUTDOWN_TEST = defineJob('test.shutdown', z.object({ n: z.number() }));

// Shutdown (issue 17, item 5): once the queue stops claiming, the job running finishes and commits, and the jobs not
// started stay due, unclaimed, for another instance (or the next start).

describe('JobQueue.stopClaiming', () => {
  let t: TestApp;
  beforeEach(async () => { t = await buildTestApp(); });
  afterEach(async () => { await t.close(); });

  it('the running job finishes; the others stay due and are run by a queue that still claims', async () => {
    const stopping = new JobQueue(t.ctx.db);
    const ran: string[] = [];
    stopping.handle(SHUTDOWN_TEST, async (_tx, payload) => {
      ran.push(String(payload.n));
      stopping.stopClaiming(); // SIGTERM arrives while the first job runs
    });
    const runAt = new Date(Date.now() - 60_000);
    await stopping.schedule(t.ctx.db, [1, 2, 3].map((n) => ({ kind: SHUTDOWN_TEST, key: `shutdown-test:${n}`, runAt: new Date(runAt.getTime() + n), payload: { n } })));

    expect(await stopping.runDueJobs()).toBe(1);
    expect(ran).toEqual(['1']);
    expect(await stopping.runDueJobs()).toBe(0);
    const rows = await t.ctx.db.selectFrom('jobs').select(['key', 'done_at']).where('kind', '=', SHUTDOWN_TEST.name).orderBy('key').execute();
    expect(rows.map((r) => [r.key, r.done_at !== null])).toEqual([['shutdown-test:1', true], ['shutdown-test:2', false], ['shutdown-test:3', false]]);

    const other = new JobQueue(t.ctx.db);
    other.handle(SHUTDOWN_TEST, async (_tx, payload) => { ran.push(String(payload.n)); });
    expect(await other.runDueJobs()).toBe(2);
    expect(ran).toEqual(['1', '2', '3']);
  });
});
