import { mkdtemp, readdir, rm } from 'node:fs/promises';
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
    await first.append([{ portId: 'p1', intervalStart: start, bytesIn: 10n, bytesOut: 2n }]);
    await first.append([{ portId: 'p2', intervalStart: start, bytesIn: 5n, bytesOut: 0n }]);

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
    await journal.append([{ portId: 'idle', intervalStart: start, bytesIn: 0n, bytesOut: 0n }]);
    expect(await journal.pending()).toEqual([]);
    await journal.append(Array.from({ length: 2500 }, (_, i) => ({ portId: `p${i}`, intervalStart: start, bytesIn: 1n, bytesOut: 1n })));
    const pending = await journal.pending();
    expect(pending.map((p) => p.report.samples.length)).toEqual([1000, 1000, 500]);
    expect((await readdir(join(dir, 'traffic'))).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
