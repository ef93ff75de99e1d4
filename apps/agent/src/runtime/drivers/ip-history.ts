import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../files.js';

export interface IpHistoryEntry {
  at: string;
  /**
   * start: measured when the agent started; rotated: a new IP; collision: the same IP after every retry; rebooted: the
   * IP after a reboot (none when the health checks rebooted it); changed: a health check found a new IP without a rotation.
   */
  event: 'start' | 'rotated' | 'collision' | 'failed' | 'rebooted' | 'changed';
  ip?: string;
  previous?: string;
  /** How long the rotation took, reconnects and measurement included. */
  ms?: number;
  attempts?: number;
  error?: string;
}

const KEEP = 500;

/** Each modem's IPs over time, one JSON line per event in `<dataDir>/modems/<imei>.ip-history.jsonl`. */
export class IpHistory {
  private readonly dir: string;
  private appended = 0;
  constructor(dataDir: string) { this.dir = join(dataDir, 'modems'); }

  private file(imei: string): string { return join(this.dir, `${imei.replace(/[^0-9A-Za-z]/g, '_')}.ip-history.jsonl`); }

  async record(imei: string, entry: Omit<IpHistoryEntry, 'at'>): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await appendFile(this.file(imei), `${JSON.stringify({ at: new Date().toISOString(), ...entry })}\n`);
    // Now and then keep only the last KEEP lines, so a farm's years of rotations do not fill the disk.
    if (++this.appended % 100 === 0) {
      const all = await this.read(imei);
      if (all.length > KEEP) await writeFileAtomic(this.file(imei), all.slice(-KEEP).map((e) => `${JSON.stringify(e)}\n`).join(''));
    }
  }

  async read(imei: string): Promise<IpHistoryEntry[]> {
    const text = await readFile(this.file(imei), 'utf8').catch((err: NodeJS.ErrnoException) => { if (err.code === 'ENOENT') return ''; throw err; });
    return text.split('\n').filter(Boolean).flatMap((line) => { try { return [JSON.parse(line) as IpHistoryEntry]; } catch { return []; } });
  }
}
