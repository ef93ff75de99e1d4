import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { AgentConfig } from './config.js';
import { createTargetPolicy } from './proxy/target-policy.js';
import { LoopbackPool, SimulatedModemDriver } from './runtime/drivers/simulated.js';
import type { ModemDriver } from './runtime/drivers/modem-driver.js';
import { HostAgent } from './runtime/host-agent.js';
import { createLogger } from './runtime/log.js';
import { AGENT_VERSION } from './version.js';

/** Starts one HostAgent per host key (the embedded demo passes every seeded host's key; a real host has one). */
export async function runAgent(config: AgentConfig): Promise<{ agents: HostAgent[]; stop(): Promise<void> }> {
  const log = createLogger(config.LOG_LEVEL, { component: 'agent' });
  const policy = createTargetPolicy({
    allowLoopback: config.AGENT_ALLOW_LOOPBACK,
    allowPrivate: config.AGENT_ALLOW_PRIVATE,
    deniedCidrs: config.AGENT_DENIED_CIDRS,
  });
  // Simulated modems of every host in this process share one pool, so no two send from the same loopback address.
  const simulated = new SimulatedModemDriver(new LoopbackPool(), config.AGENT_SIM_DELAY_MS);
  const driverFor = (kind: string): ModemDriver => {
    if (kind === 'simulated') return simulated;
    throw new Error(`the ${kind} driver is not in this agent version; only simulated modems are supported`);
  };
  const agents = config.CELLPORT_HOST_KEY.map((key) => {
    // Each host keeps its own state and traffic, in a folder named after its key (not the key itself).
    const id = createHash('sha256').update(key).digest('hex').slice(0, 12);
    return new HostAgent({
      serverUrl: config.CELLPORT_SERVER_URL, key, dataDir: join(config.AGENT_DATA_DIR, id), listenHost: config.AGENT_LISTEN_HOST,
      policy, driverFor, log: log.child({ hostKey: id }), agentVersion: AGENT_VERSION, reportSeconds: config.AGENT_TRAFFIC_REPORT_SECONDS,
    });
  });
  await Promise.all(agents.map((a) => a.start()));
  log.info({ hosts: agents.length, version: AGENT_VERSION }, 'agent started');
  return { agents, stop: async () => { await Promise.all(agents.map((a) => a.stop())); } };
}
