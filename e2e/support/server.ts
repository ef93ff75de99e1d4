// Starts the BUILT server (apps/server/dist/main.js) as a child process for one spec file, on its own free
// port and its own fresh database: a temp DATA_DIR with PGlite, or — when TEST_DATABASE_URL is set — a new
// PostgreSQL database made for this run and dropped after it. The captcha is the default (altcha), so the
// browser walks the real flow; NODE_ENV=development so the dev outbox (GET /api/v1/dev/outbox) exists.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { freePort } from '../../packages/node-common/src/free-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { seedPortEnv } from '../../apps/server/test/seed-ports.js';

export const repoRoot = new URL('../../', import.meta.url).pathname;
const resultsDir = join(repoRoot, 'test-results');

export interface E2EServer {
  /** http://127.0.0.1:PORT — also the server's PUBLIC_URL, so e-mailed links point here. */
  readonly url: string;
  /** The settings the server runs with (DATA_DIR or DATABASE_URL included): give them to the CLI. */
  readonly env: Record<string, string>;
  /** Where the server's output goes (printed when it fails to start). */
  readonly logFile: string;
  start(): Promise<void>;
  /** SIGTERM and wait for the exit; the data stays for a later start(). */
  stop(): Promise<void>;
  /** stop() and delete the data. */
  dispose(): Promise<void>;
  /**
   * Runs `npm run admin -- ...args` against this server's database, from the same build as the server
   * (ADMIN_FROM=dist), so both agree on the migrations. On PostgreSQL it runs beside the server, as in production; on
   * PGlite, which allows one process, a running server stops for it and starts again.
   */
  admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}

export interface ServerOptions {
  /** Used for the log file name. */
  name: string;
  /** Extra settings (e.g. CAPTCHA_PROVIDER). */
  env?: Record<string, string>;
}

/** One server for the spec file that calls this: started in beforeAll, disposed in afterAll. */
export function useServer(options: ServerOptions): E2EServer {
  let server: E2EServer | undefined;
  beforeAll(async () => {
    server = await prepareServer(options);
    await server.start();
  });
  afterAll(async () => { await server?.dispose(); });
  return new Proxy({} as E2EServer, {
    get(_target, key) {
      if (!server) throw new Error('the e2e server is not started yet (use it inside tests or hooks)');
      const value = server[key as keyof E2EServer];
      return typeof value === 'function' ? value.bind(server) : value;
    },
  });
}

export async function prepareServer(options: ServerOptions): Promise<E2EServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const database = await freshDatabase();
  mkdirSync(resultsDir, { recursive: true });
  const logFile = join(resultsDir, `server-${options.name}.log`);
  const env: Record<string, string> = {
    NODE_ENV: 'development',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    SEED_DEMO: 'true',
    LOG_LEVEL: 'info',
    LOG_PRETTY: 'false',
    // Several sign-ups and sign-ins per spec file from one address: the limit is tested by the server tests.
    RATE_LIMIT_AUTH_PER_MINUTE: '300',
    // The embedded agent serves the seeded modems on a free block, never a running `npm start`'s 21000+.
    ...await seedPortEnv(),
    ...database.env,
    ...(process.env.WEB_DIST ? { WEB_DIST: process.env.WEB_DIST } : {}),
    ...options.env,
  };
  let child: ChildProcess | undefined;

  const server: E2EServer = {
    url, env, logFile,
    async start() {
      if (child) throw new Error('server already running');
      const log = createWriteStream(logFile, { flags: 'a' });
      const proc = spawn(process.execPath, ['--enable-source-maps', join(repoRoot, 'apps/server/dist/main.js')], {
        cwd: repoRoot,
        env: childEnv(env),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      proc.stdout?.pipe(log);
      proc.stderr?.pipe(log);
      child = proc;
      const exited = new Promise<never>((_, reject) => proc.once('exit', (code) => {
        reject(new Error(`the server exited with code ${code} while starting:\n${tail(logFile)}`));
      }));
      exited.catch(() => {});
      await Promise.race([waitReady(url, 60_000, logFile), exited]);
    },
    async stop() {
      const proc = child;
      if (!proc) return;
      child = undefined;
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    },
    async dispose() {
      await server.stop();
      await database.drop();
    },
    async admin(...args) {
      const paused = !env.DATABASE_URL && child !== undefined;
      if (paused) await server.stop();
      try {
        return await runCommand('npm', ['run', '--silent', 'admin', '--', ...args], { ...env, LOG_LEVEL: 'warn', ADMIN_FROM: 'dist' });
      } finally {
        if (paused) await server.start();
      }
    },
  };
  return server;
}

interface FreshDatabase { env: Record<string, string>; drop(): Promise<void> }

async function freshDatabase(): Promise<FreshDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cellport-e2e-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return { env: { DATA_DIR: dataDir }, drop: async () => removeDir() };
  const name = `cellport_e2e_${randomBytes(5).toString('hex')}`;
  await onAdmin(adminUrl, `create database ${name}`);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${name}`;
  return {
    // DATA_DIR still holds the local secret that keeps sessions valid across a restart.
    env: { DATA_DIR: dataDir, DATABASE_URL: dbUrl.toString() },
    async drop() {
      await onAdmin(adminUrl, `drop database if exists ${name} with (force)`);
      removeDir();
    },
  };
}

async function onAdmin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try { await client.query(statement); } finally { await client.end(); }
}

async function waitReady(url: string, timeoutMs: number, logFile: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${url}/readyz`);
      if (response.ok) return;
    } catch { /* not listening yet */ }
    // A wait for an outside process to start (the allowed exception to "no fixed sleeps"): the server is another
    // process with no way to tell us it is ready but /readyz, so it is asked again every 150 ms until the deadline.
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`the server at ${url} was not ready within ${timeoutMs / 1000} s:\n${tail(logFile)}`);
}

function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no server log)';
  }
}

function runCommand(command: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    const proc = spawn(command, args, { cwd: repoRoot, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    proc.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    proc.once('error', reject);
    proc.once('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** Only what a child needs: none of this shell's own DATABASE_URL, PORT or the like leaks into it. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env };
}
