import { spawn, type ChildProcess } from 'node:child_process';
import { within } from './announcements.js';

// The server as its own process (from source through tsx), for the tests of what only a real process shows: signals,
// crashes, its job runner.

const root = new URL('../../../', import.meta.url).pathname;

/**
 * A server process's environment on a test database: on 127.0.0.1 at a free port, no demo data, no embedded agent, no
 * web app, jobs polled every 100 ms, JSON logs at info (the tests wait for their lines). `extra` adds or overrides.
 */
export function serverProcessEnv(o: { dbUrl: string; secret: string; dataDir: string }, extra: Record<string, string> = {}): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH, NODE_ENV: 'development', DATABASE_URL: o.dbUrl, SESSION_SECRET: o.secret, DATA_DIR: o.dataDir,
    HOST: '127.0.0.1', PORT: '0', PUBLIC_URL: 'http://localhost:3000', WEB_DIST: '/nonexistent', CAPTCHA_PROVIDER: 'off',
    SEED_DEMO: 'false', EMBEDDED_AGENT: 'false', JOBS_POLL_MS: '100', LOG_LEVEL: 'info', ...extra,
  };
}

/** The server process with `env`, its stdout piped (for `watched`). */
export function spawnServer(env: Record<string, string | undefined>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
}

export interface Watched { output(): string; line(pattern: RegExp, what: string, ms?: number): Promise<string> }

/** A process whose stdout is kept, with a way to wait for a line (failing with the output if it exits first). */
export function watched(proc: ChildProcess): Watched {
  let out = '';
  const waiters: Array<() => void> = [];
  proc.stdout!.on('data', (chunk: Buffer) => { out += chunk.toString(); for (const w of waiters.splice(0)) w(); });
  return {
    output: () => out,
    line: (pattern, what, ms = 120_000) => within(new Promise<string>((resolve, reject) => {
      const check = () => {
        const m = pattern.exec(out);
        if (m) return resolve(m[0]);
        if (proc.exitCode !== null) return reject(new Error(`exited (${proc.exitCode}) before ${what}:\n${out}`));
        waiters.push(check);
      };
      proc.once('exit', check);
      check();
    }), ms, `${what}:\n${out}`),
  };
}
