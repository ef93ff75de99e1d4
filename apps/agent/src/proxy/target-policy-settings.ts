import type { AgentConfig } from '../config.js';
import type { ModemsFile } from '../modems/modems-file.js';
import { createTargetPolicy, type TargetPolicy } from './target-policy.js';

/**
 * Which targets the agent's customers may reach, from its settings and its modems file: simulated modems (all of them
 * without a file) send from 127.0.x.y, so this machine's service ports are refused on every address.
 */
export function targetPolicyOf(config: AgentConfig, file: ModemsFile | null): TargetPolicy {
  return createTargetPolicy({
    allowLoopback: config.AGENT_ALLOW_LOOPBACK,
    allowPrivate: config.AGENT_ALLOW_PRIVATE,
    deniedCidrs: config.AGENT_DENIED_CIDRS,
    deniedPorts: config.AGENT_DENY_PORTS,
    loopbackEgress: !file || file.modems.some((m) => m.driver === 'simulated'),
  });
}
