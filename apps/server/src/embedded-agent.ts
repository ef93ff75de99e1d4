import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { AppContext } from './context.js';
import { hashToken } from './lib/tokens.js';
import { demoHostKey, demoHosts } from './modules/hosts/index.js';

// The agent's bundle, at the same depth from src/ and dist/ (apps/server/{src,dist} → apps/agent/dist).
const AGENT_ENTRY = fileURLToPath(new URL('../../agent/dist/main.js', import.meta.url));
const RESTART_MAX_MS = 30_000;

export interface EmbeddedAgent { stop(): Promise<void> }

/**
 * The demo's proxy host agent (issue 11): outside production `npm start` runs one agent, as a child process talking
 * to this server over the same host protocol a real host uses (never in-process: the agent shares no code with the
 * server but the contract), for every seeded demo host whose key is still the demo key. Its JSON log lines join the
 * server's log; if it dies it is started again with backoff. A port it cannot open leaves that modem offline; it
 * never stops the server.
 */
export async function startEmbeddedAgent(ctx: AppContext, serverPort: number): Promise<EmbeddedAgent | null> {
  const { config, log } = ctx;
  const hosts = await demoHosts(ctx.db);
  const keys = hosts.map((h) => ({ key: demoHostKey(h.name, config.secret), hash: h.ingest_key_hash }))
    .filter((h) => h.hash === hashToken(h.key)).map((h) => h.key);
  if (keys.length === 0) {
    log.info('embedded agent: no seeded demo host keeps its demo key, so none is started');
    return null;
  }
  if (!existsSync(AGENT_ENTRY)) {
    log.warn(`embedded agent: ${AGENT_ENTRY} is not built (npm run build); bought ports will not carry traffic`);
    return null;
  }
  const env = embeddedAgentEnv(config, serverPort, keys);

  let child: ChildProcess | null = null;
  let stopping = false;
  let delay = 1000;
  let restartTimer: NodeJS.Timeout | undefined;
  const agentLog = log.child({ component: 'agent' });

  const launch = () => {
    const started = Date.now();
    const proc = spawn(process.execPath, ['--enable-source-maps', AGENT_ENTRY], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    createInterface({ input: proc.stdout! }).on('line', (line) => relay(agentLog, line));
    createInterface({ input: proc.stderr! }).on('line', (line) => agentLog.warn(line));
    proc.on('exit', (code, signal) => {
      child = null;
      if (stopping) return;
      // A run that lasted a while resets the backoff; a crash loop slows down to one start every 30 s.
      delay = Date.now() - started > 60_000 ? 1000 : Math.min(delay * 2, RESTART_MAX_MS);
      agentLog.error({ code, signal }, `embedded agent exited; starting it again in ${Math.round(delay / 1000)} s`);
      restartTimer = setTimeout(launch, delay);
      restartTimer.unref();
    });
  };
  launch();
  log.info({ hosts: keys.length }, 'embedded agent started for the demo hosts (EMBEDDED_AGENT=false turns it off)');

  return {
    async stop() {
      stopping = true;
      clearTimeout(restartTimer);
      const proc = child;
      if (!proc || proc.exitCode !== null) return;
      const exited = new Promise<void>((r) => proc.once('exit', () => r()));
      proc.kill('SIGTERM');
      const force = setTimeout(() => proc.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(force);
    },
  };
}

const LEVELS = new Set(['debug', 'info', 'warn', 'error']);

/** One JSON line of the agent's log into the server's logger, at its own level. */
function relay(logger: AppContext['log'], line: string): void {
  try {
    const { level, msg, time: _time, ...fields } = JSON.parse(line) as { level?: string; msg?: string; time?: string };
    const at = (LEVELS.has(level ?? '') ? level : 'info') as 'debug' | 'info' | 'warn' | 'error';
    logger[at](fields, msg ?? '');
  } catch {
    logger.info(line);
  }
}

/** The embedded agent's environment: nothing of the server's own environment but PATH reaches it. */
export function embeddedAgentEnv(config: AppContext['config'], serverPort: number, keys: string[]): NodeJS.ProcessEnv {
  const serverHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  // On a loopback PUBLIC_URL (the newcomer's localhost) the demo's ports listen on loopback only, and only then may its
  // customers reach this machine's own sites (the dashboard's "Try it" is its /api/v1/ip): a demo or staging box
  // that others reach keeps loopback refused (issue 26, item 4). The agent refuses well-known service ports either way.
  const publicHost = new URL(config.publicUrl).hostname;
  const onLoopback = publicHost === 'localhost' || /^127\./.test(publicHost) || publicHost === '[::1]';
  return {
    PATH: process.env.PATH,
    CELLPORT_SERVER_URL: `http://${serverHost.includes(':') ? `[${serverHost}]` : serverHost}:${serverPort}`,
    CELLPORT_HOST_KEY: keys.join(','),
    AGENT_DATA_DIR: join(resolve(config.DATA_DIR), 'agent'),
    AGENT_LISTEN_HOST: onLoopback ? '127.0.0.1' : '0.0.0.0',
    AGENT_ALLOW_LOOPBACK: String(onLoopback),
    AGENT_TRAFFIC_REPORT_SECONDS: '10',
    AGENT_SIM_DELAY_MS: String(config.MODEM_SIM_DELAY_MS),
    // Open tunnels get 3 s to finish when the server stops, inside the 5 s after which it kills the agent.
    AGENT_DRAIN_SECONDS: '3',
    // The demo's modems are loopback addresses: a small speed test soon after the start fills the catalog's speeds.
    AGENT_SPEEDTEST_FIRST_DELAY_SECONDS: '5',
    AGENT_SPEEDTEST_BYTES: String(512 * 1024),
    // Its metrics (apps/agent/README.md), only when asked for and only with the server's token.
    ...(config.EMBEDDED_AGENT_METRICS_PORT && config.METRICS_TOKEN
      ? { AGENT_METRICS_PORT: String(config.EMBEDDED_AGENT_METRICS_PORT), METRICS_TOKEN: config.METRICS_TOKEN } : {}),
    LOG_LEVEL: config.LOG_LEVEL === 'silent' || config.LOG_LEVEL === 'fatal' ? 'error' : config.LOG_LEVEL === 'trace' ? 'debug' : config.LOG_LEVEL,
  };
}
