import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TrafficJournal } from './traffic-journal.js';

const dirs: string[] = [];
const tempDir = async () => { const d = await mkdtemp(join(tmpdir(), 'journal-')); dirs.push(d); return d; };
afterEach(async () => { await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true }))); });

const start = Date.UTC(2026, 10, 24, 12, 0);

describe('traffic journal', () => {
  it('keeps batches on disk until acknowledged, in order, across a new instance (a restart)', async () => {
    const dir = await tempDir();
    const first = new TrafficJournal(dir);
    await first.seal([{ portId: 'p1', intervalStart: start, bytesIn: 10n, bytesOut: 2n }]);
    await first.seal([{ portId: 'p2', intervalStart: start, bytesIn: 5n, bytesOut: 0n }]);

    const restarted = new TrafficJournal(dir);
    const pending = await restarted.pending();
    expect(pending.map((p) => p.report.samples[0]!.portId)).toEqual(['p1', 'p2']);
    expect(pending[0]!.report.samples[0]).toEqual({ portId: 'p1', intervalStart: new Date(start).toISOString(), bytesIn: '10', bytesOut: '2' });
    expect(new Set(pending.map((p) => p.report.batchId)).size).toBe(2);

    // A resend after a lost acknowledgement carries the same batch id.
    expect((await new TrafficJournal(dir).pending())[0]!.report.batchId).toBe(pending[0]!.report.batchId);

    await restarted.acknowledge(pending[0]!.file);
    expect((await restarted.pending()).map((p) => p.report.samples[0]!.portId)).toEqual(['p2']);
  });

  it('writes nothing for an idle period and splits big ones into batches the server accepts', async () => {
    const dir = await tempDir();
    const journal = new TrafficJournal(dir);
    await journal.seal([{ portId: 'idle', intervalStart: start, bytesIn: 0n, bytesOut: 0n }]);
    expect(await journal.pending()).toEqual([]);
    await journal.seal(Array.from({ length: 2500 }, (_, i) => ({ portId: `p${i}`, intervalStart: start, bytesIn: 1n, bytesOut: 1n })));
    const pending = await journal.pending();
    expect(pending.map((p) => p.report.samples.length)).toEqual([1000, 1000, 500]);
    expect((await readdir(join(dir, 'traffic'))).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('records closed connections at once; a seal merges the log with what open connections moved', async () => {
    const dir = await tempDir();
    const journal = new TrafficJournal(dir);
    journal.record([{ portId: 'p1', intervalStart: start, bytesIn: 100n, bytesOut: 10n }]);
    journal.record([{ portId: 'p1', intervalStart: start, bytesIn: 1n, bytesOut: 1n }, { portId: 'p2', intervalStart: start, bytesIn: 7n, bytesOut: 0n }]);
    await journal.seal([{ portId: 'p1', intervalStart: start, bytesIn: 1000n, bytesOut: 0n }]);
    const [batch] = await journal.pending();
    expect(batch!.report.samples).toEqual([
      { portId: 'p1', intervalStart: new Date(start).toISOString(), bytesIn: '1101', bytesOut: '11' },
      { portId: 'p2', intervalStart: new Date(start).toISOString(), bytesIn: '7', bytesOut: '0' },
    ]);
    expect((await readdir(join(dir, 'traffic'))).filter((n) => n.endsWith('.log'))).toEqual([]);
  });

  it('after a crash, the log of a new start is sealed, and a seal cut short is finished exactly once', async () => {
    const dir = await tempDir();
    // A process recorded bytes and died before any seal.
    new TrafficJournal(dir).record([{ portId: 'p1', intervalStart: start, bytesIn: 5n, bytesOut: 5n }]);
    // Another died mid-seal: its log renamed, its batch never written.
    await writeFile(join(dir, 'traffic', 'sealing-6f1f8a52-4a53-4a2f-9a3c-3f8f2f0b9d11.log'), `p2\t${start}\t3\t4\n`);

    const restarted = new TrafficJournal(dir);
    await restarted.seal([]);
    const reports = (await restarted.pending()).map((p) => p.report);
    const byPort = Object.fromEntries(reports.flatMap((r) => r.samples.map((s) => [s.portId, `${s.bytesIn}/${s.bytesOut}`])));
    expect(byPort).toEqual({ p1: '5/5', p2: '3/4' });
    expect(reports.find((r) => r.samples[0]!.portId === 'p2')!.batchId).toBe('6f1f8a52-4a53-4a2f-9a3c-3f8f2f0b9d11');
    expect((await readdir(join(dir, 'traffic'))).filter((n) => n.endsWith('.log'))).toEqual([]);

    // Another died after writing the batch of its seal, before removing the sealed log: nothing is written twice.
    const dir2 = await tempDir();
    const id = '11111111-2222-4333-8444-555555555555';
    await mkdir(join(dir2, 'traffic'));
    await writeFile(join(dir2, 'traffic', `sealing-${id}.log`), `p9\t${start}\t1\t1\n`);
    await writeFile(join(dir2, 'traffic', `000000000000001-000000-${id}-0-${id}.json`), JSON.stringify({
      batchId: id, samples: [{ portId: 'p9', intervalStart: new Date(start).toISOString(), bytesIn: '1', bytesOut: '1' }],
    }));
    const after = await new TrafficJournal(dir2).pending();
    expect(after.map((p) => p.report.batchId)).toEqual([id]);
    expect((await readdir(join(dir2, 'traffic'))).filter((n) => n.endsWith('.log'))).toEqual([]);
  });
});
