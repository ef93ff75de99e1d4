import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { desiredStateSchema, type DesiredState } from '@cellport/shared/schemas/host-protocol';
import { writeFileAtomic } from './files.js';

/**
 * The last desired state the server sent, kept on disk so a restarted agent serves the same ports, credentials and
 * expiries while the server is unreachable.
 */
export class StateStore {
  private readonly path: string;
  constructor(dir: string) { this.path = join(dir, 'state.json'); }

  async load(): Promise<DesiredState | null> {
    try {
      const parsed = desiredStateSchema.safeParse(JSON.parse(await readFile(this.path, 'utf8')));
      return parsed.success ? parsed.data : null;
    } catch {
      return null; // none yet, or unreadable: wait for the server
    }
  }

  save(state: DesiredState): Promise<void> { return writeFileAtomic(this.path, JSON.stringify(state)); }
}
