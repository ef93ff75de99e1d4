import { AgentConfigError, loadAgentConfig } from './config.js';
import { runAgent } from './run-agent.js';

// `npm run agent` on a modem host, or the server's embedded demo agent: reads the environment, serves until stopped.
async function main(): Promise<void> {
  const running = await runAgent(loadAgentConfig());
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    running.stop().finally(() => { clearTimeout(force); process.exit(0); });
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

main().catch((err: unknown) => {
  console.error(err instanceof AgentConfigError ? err.message : err);
  process.exit(1);
});
