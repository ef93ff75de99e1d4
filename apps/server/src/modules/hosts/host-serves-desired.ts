import type { Bus } from '../../lib/bus.js';
import { TOPICS } from '../../lib/bus-topics.js';
import { loadDesiredStates } from './host-state.js';
import type { HostStateRepository } from './host-state.repository.js';

/** Issue 30: a preset change applies to new connections within 3 s; a check waits no longer than that for it. */
export const APPLY_WAIT_MS = 3_000;

/**
 * Resolves true once the host's agent serves the desired state as it is now (so a preset just chosen is in effect),
 * false if it does not within `waitMs`. Event-driven: the agent heartbeats right after applying a state, the instance
 * holding its connection records the version in hosts.state_version and then announces it on TOPICS.hostServes
 * (through PostgreSQL NOTIFY to every instance). Subscribing before reading the record means no report is missed.
 * A host whose agent never reported a version is not waited for: there is nothing to wait for, and the check's own
 * connection says whether the port answers.
 */
export async function hostServesDesired(repo: HostStateRepository, bus: Bus, hostId: string, waitMs = APPLY_WAIT_MS): Promise<boolean> {
  let wake: () => void = () => {};
  const off = bus.on(TOPICS.hostServes, (m) => { if (m.hostId === hostId) wake(); });
  const deadline = Date.now() + waitMs;
  try {
    for (;;) {
      // Armed before the reads, so a report arriving while they run wakes the next round at once.
      const reported = new Promise<void>((resolve) => { wake = resolve; });
      const [served, desired] = await Promise.all([repo.reportedVersion(hostId), loadDesiredStates(repo, [hostId])]);
      const want = desired.get(hostId)?.state.version;
      if (!served || !want || served === want) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        reported.then(() => false),
        new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(true), left); }),
      ]);
      clearTimeout(timer);
      if (timedOut) return false;
    }
  } finally {
    off();
  }
}
