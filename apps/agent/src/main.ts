import { AgentConfigError, loadAgentConfig } from './config.js';
import { runAgent } from './run-agent.js';
import { createLogger } from './runtime/log.js';
import { startupFailure } from './runtime/startup-failure.js';

/** After the drain, closing the rest and writing the traffic journal take moments; past this margin the agent just exits. */
const STOP_MARGIN_MS = 10_000;

// `npm run agent` on a modem host, or the server's embedded demo agent: reads the environment, serves until stopped.
// SIGTERM drains: the ports stop taking connections, the open ones get AGENT_DRAIN_SECONDS to finish, the rest are
// cut, what they moved is journaled on disk (sent at the next start), and the process exits 0. SIGINT stops at once.
async function main(): Promise<void> {
  // A log reader that went away (EPIPE) ends this process's log, never the process (issue 26, item 13).
  for (const out of [process.stdout, process.stderr]) out.on('error', () => {});
  const config = loadAgentConfig();
  const running = await runAgent(config);
  const log = createLogger(config.LOG_LEVEL, { component: 'agent' });
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const drainMs = signal === 'SIGTERM' ? config.AGENT_DRAIN_SECONDS * 1000 : 0;
    log.info({ signal, drainSeconds: drainMs / 1000 }, drainMs ? 'stopping: no new connections; open tunnels may finish' : 'stopping');
    const force = setTimeout(() => {
      log.error({ signal }, 'stopping took too long: exiting');
      process.exit(1);
    }, drainMs + STOP_MARGIN_MS).unref();
    running.stop(drainMs).then(
      () => { log.info({}, 'stopped: traffic journaled on disk'); clearTimeout(force); process.exit(0); },
      (err: unknown) => { log.error({ err }, 'stopping failed'); clearTimeout(force); process.exit(1); },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

main().catch((err: unknown) => {
  const config = (() => { try { return loadAgentConfig(); } catch { return null; } })();
  const ports: Record<number, string> = config?.AGENT_METRICS_PORT ? { [config.AGENT_METRICS_PORT]: 'AGENT_METRICS_PORT' } : {};
  console.error(startupFailure(err, (e) => e instanceof AgentConfigError, ports));
  process.exit(1);
});
