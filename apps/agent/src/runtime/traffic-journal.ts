import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { trafficReportSchema, type TrafficReport } from '@cellport/shared/schemas/host-protocol';
import type { TrafficSample } from '../proxy/types.js';
import { removeFile, writeFileAtomic } from './files.js';

const BATCH_MAX = 1000;

/**
 * Traffic reports waiting for the server's acknowledgement, one file per batch. A batch is written (fsync'd) before
 * it is sent and removed only once acknowledged, so an outage or a crash loses nothing that was collected, and a
 * resend carries the same batch id, which the server counts once. Files are named by time, so they go in order.
 */
export class TrafficJournal {
  private readonly dir: string;
  private seq = 0;
  constructor(dataDir: string) { this.dir = join(dataDir, 'traffic'); }

  /** Turns collected samples into batches on disk. */
  async append(samples: TrafficSample[]): Promise<void> {
    const nonEmpty = samples.filter((s) => s.bytesIn > 0n || s.bytesOut > 0n);
    for (let i = 0; i < nonEmpty.length; i += BATCH_MAX) {
      const report: TrafficReport = {
        batchId: randomUUID(),
        samples: nonEmpty.slice(i, i + BATCH_MAX).map((s) => ({
          portId: s.portId,
          intervalStart: new Date(s.intervalStart).toISOString(),
          bytesIn: s.bytesIn.toString(),
          bytesOut: s.bytesOut.toString(),
        })),
      };
      const name = `${Date.now().toString().padStart(15, '0')}-${String(this.seq++).padStart(6, '0')}-${report.batchId}.json`;
      await writeFileAtomic(join(this.dir, name), JSON.stringify(report));
    }
  }

  /** The batches not yet acknowledged, oldest first. A damaged file (should not happen: writes are atomic) is skipped. */
  async pending(): Promise<Array<{ file: string; report: TrafficReport }>> {
    await mkdir(this.dir, { recursive: true });
    const names = (await readdir(this.dir)).filter((n) => n.endsWith('.json')).sort();
    const out: Array<{ file: string; report: TrafficReport }> = [];
    for (const name of names) {
      const file = join(this.dir, name);
      const parsed = trafficReportSchema.safeParse(JSON.parse(await readFile(file, 'utf8').catch(() => 'null')));
      if (parsed.success) out.push({ file, report: parsed.data });
    }
    return out;
  }

  acknowledge(file: string): Promise<void> { return removeFile(file); }
}
