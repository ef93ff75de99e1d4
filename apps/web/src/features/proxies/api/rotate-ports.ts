import type { Port } from '@cellport/shared/schemas/catalog';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { rotationTargets } from '../lib/port-tags';
import { rotatePort } from './rotate-port';

/** How many rotations run at once: each takes the modem a few seconds, and the server limits each port on its own. */
const AT_ONCE = 3;

export interface RotateAllOutcome { rotated: number; failed: Array<{ port: Port; error: unknown }> }

/**
 * 'Rotate all' for a group of ports (a tag): one rotation per modem, a few at a time, with progress; every port's
 * outcome is collected, so one refused rotation does not stop the others.
 */
export function useRotateAll() {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);

  async function run(ports: readonly Port[]): Promise<RotateAllOutcome> {
    const queue = rotationTargets(ports);
    const outcome: RotateAllOutcome = { rotated: 0, failed: [] };
    let done = 0;
    setProgress({ done, total: queue.length });
    const worker = async () => {
      for (let port = queue.shift(); port; port = queue.shift()) {
        try {
          await rotatePort(queryClient, port);
          outcome.rotated++;
        } catch (error) {
          outcome.failed.push({ port, error });
        }
        setProgress((p) => p && { ...p, done: ++done });
      }
    };
    try {
      await Promise.all(Array.from({ length: AT_ONCE }, worker));
    } finally {
      setProgress(null);
      void queryClient.invalidateQueries({ queryKey: ['modems'] });
    }
    return outcome;
  }

  return { run, progress, running: progress !== null };
}
