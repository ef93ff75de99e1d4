import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { mkdir, readdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { trafficReportSchema, type TrafficReport } from '@cellport/shared/schemas/host-protocol';
import type { TrafficSample } from '../proxy/types.js';
import { removeFile, writeFileAtomic } from './files.js';

const BATCH_MAX = 1000;
const LOG = 'counted.log';
const SEALING = /^sealing-([0-9a-f-]{36})\.log$/;

/**
 * Traffic on its way to the server, on disk at every step, so a crash (kill -9) loses only what connections still
 * open had moved, and nothing is counted twice:
 *
 * 1. `record`: the bytes of connections as they close are appended to `counted.log` at once (one small write; the
 *    kernel keeps it through a crash of the process).
 * 2. `seal`: at report time the log is renamed to `sealing-<batch id>.log`, its lines and what open connections moved
 *    are written as batch files (written whole, then renamed into place), and the sealed log is removed. A crash
 *    between two steps is finished at the next start: a sealed log whose batch exists is only removed.
 * 3. `pending` / `acknowledge`: batches are sent in order and removed only once the server acknowledged them; a resend
 *    carries the same batch id, which the server counts once.
 */
export class TrafficJournal {
  private readonly dir: string;
  private seq = 0;
  private recovered = false;
  private dirMade = false;
  constructor(dataDir: string) { this.dir = join(dataDir, 'traffic'); }

  /** Appends counted bytes to the log, synchronously (called on the proxy's hot path only once per closed connection batch). */
  record(samples: TrafficSample[]): void {
    if (samples.length === 0) return;
    let lines = '';
    for (const s of samples) lines += `${s.portId}\t${s.intervalStart}\t${s.bytesIn}\t${s.bytesOut}\n`;
    // Once per journal, not per record: this runs whenever connections close.
    if (!this.dirMade) {
      mkdirSync(this.dir, { recursive: true });
      this.dirMade = true;
    }
    appendFileSync(join(this.dir, LOG), lines);
  }

  /** Turns the log and the given samples (what open connections moved) into batches on disk. */
  async seal(samples: TrafficSample[]): Promise<void> {
    await this.recover();
    const batchId = randomUUID();
    const sealing = join(this.dir, `sealing-${batchId}.log`);
    const hadLog = await rename(join(this.dir, LOG), sealing).then(() => true, () => false);
    const logged = hadLog ? parseLog(await readFile(sealing, 'utf8')) : [];
    await this.writeBatches(batchId, merge([...logged, ...samples]));
    if (hadLog) await removeFile(sealing);
  }

  /** The batches not yet acknowledged, oldest first. */
  async pending(): Promise<Array<{ file: string; report: TrafficReport }>> {
    await this.recover();
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

  /** Finishes a seal a crash interrupted (once per start). */
  private async recover(): Promise<void> {
    if (this.recovered) return;
    this.recovered = true;
    await mkdir(this.dir, { recursive: true });
    const names = await readdir(this.dir);
    for (const name of names) {
      const batchId = SEALING.exec(name)?.[1];
      if (!batchId) continue;
      const sealing = join(this.dir, name);
      const written = (part: number) => names.some((n) => n.includes(`-${batchId}-${part}-`));
      await this.writeBatches(batchId, merge(parseLog(await readFile(sealing, 'utf8'))), written);
      await removeFile(sealing);
    }
  }

  /**
   * Writes samples as batch files. The first batch takes `batchId` (the sealed log's name points at it); a seal too
   * big for one report is split, the later parts named after it so recovery writes only the parts that are missing.
   */
  private async writeBatches(batchId: string, samples: TrafficSample[], written: (part: number) => boolean = () => false): Promise<void> {
    const nonEmpty = samples.filter((s) => s.bytesIn > 0n || s.bytesOut > 0n);
    for (let i = 0; i < nonEmpty.length; i += BATCH_MAX) {
      if (written(i / BATCH_MAX)) continue;
      const report: TrafficReport = {
        batchId: i === 0 ? batchId : randomUUID(),
        samples: nonEmpty.slice(i, i + BATCH_MAX).map((s) => ({
          portId: s.portId,
          intervalStart: new Date(s.intervalStart).toISOString(),
          bytesIn: s.bytesIn.toString(),
          bytesOut: s.bytesOut.toString(),
        })),
      };
      const name = `${Date.now().toString().padStart(15, '0')}-${String(this.seq++).padStart(6, '0')}-${batchId}-${i / BATCH_MAX}-${report.batchId}.json`;
      await writeFileAtomic(join(this.dir, name), JSON.stringify(report));
    }
  }
}

/** The log's lines; a damaged line (there should be none: each append is one write) is skipped. */
function parseLog(text: string): TrafficSample[] {
  const out: TrafficSample[] = [];
  for (const line of text.split('\n')) {
    const [portId, start, bytesIn, bytesOut] = line.split('\t');
    if (!portId || !/^\d+$/.test(start ?? '') || !/^\d+$/.test(bytesIn ?? '') || !/^\d+$/.test(bytesOut ?? '')) continue;
    out.push({ portId, intervalStart: Number(start), bytesIn: BigInt(bytesIn!), bytesOut: BigInt(bytesOut!) });
  }
  return out;
}

/** One sample per port and interval. */
function merge(samples: TrafficSample[]): TrafficSample[] {
  const byKey = new Map<string, TrafficSample>();
  for (const s of samples) {
    const key = `${s.portId}\n${s.intervalStart}`;
    const seen = byKey.get(key);
    if (seen) byKey.set(key, { ...seen, bytesIn: seen.bytesIn + s.bytesIn, bytesOut: seen.bytesOut + s.bytesOut });
    else byKey.set(key, { ...s });
  }
  return [...byKey.values()];
}
