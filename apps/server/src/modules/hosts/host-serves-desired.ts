import type { Bus } from '../../lib/bus.js';
import { TOPICS } from '../../lib/bus-topics.js';
import { loadDesiredStates } from './host-state.js';
import type { HostStateRepository } from './host-state.repository.js';

/** Issue 30: a preset change applies to new connections within 3 s; a check waits no longer than that for it. */
export const APPLY_WAIT_MS = 3_000;

/**
 * Resolves true once the host's agent serves the port's desired settings as they are now (so a preset just chosen is
 * in effect), false if it does not within `waitMs`. Only the port's own settings are waited for: the agent reports
 * each port's digest (Heartbeat.ports, from PortAccess.digest), so another customer's change on the same host, not yet
 * served, does not hold this customer's check (one customer must not disrupt another). An agent that does not report
 * digests (older ones) is waited for until it serves the whole desired state's version, as before.
 * Event-driven: the agent heartbeats right after applying a state, the instance holding its connection records it on
 * the host's row and then announces it on TOPICS.hostServes (through PostgreSQL NOTIFY to every instance).
 * Subscribing before reading the record means no report is missed. A host whose agent never reported a version is not
 * waited for, nor a port its desired state does not list: there is nothing to wait for, and the check's own connection
 * says whether the port answers.
 */
export async function portServesDesired(repo: HostStateRepository, bus: Bus, hostId: string, portId: string, waitMs = APPLY_WAIT_MS): Promise<boolean> {
  let wake: () => void = () => {};
  const off = bus.on(TOPICS.hostServes, (m) => { if (m.hostId === hostId) wake(); });
  const deadline = Date.now() + waitMs;
  try {
    for (;;) {
      // Armed before the reads, so a report arriving while they run wakes the next round at once.
      const reported = new Promise<void>((resolve) => { wake = resolve; });
      const [served, desired] = await Promise.all([repo.reportedServing(hostId), loadDesiredStates(repo, [hostId])]);
      const state = desired.get(hostId)?.state;
      const want = state?.modems.flatMap((m) => m.ports).find((p) => p.id === portId)?.digest;
      if (!served?.version || !state || !want) return true;
      if (served.ports ? served.ports[portId] === want : served.version === state.version) return true;
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
