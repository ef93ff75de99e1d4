import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { within } from './announcements.js';
import { describeOnPostgres } from './helpers.js';
import { serverProcessEnv, watched } from './server-process.js';
import { copyTemplateDatabase } from './template-db.js';

// `npm start` stopped as a service is (issue 26, item 13; issue 28, item 7): the server under the start script's
// supervision (scripts/supervise.mjs, as scripts/start.mjs runs it, with the server from source), in its own process
// group as systemd starts it. The group's signal reaches both processes, the script's forward arrives too, and the
// supervisor closes the log pipe at once: one graceful stop, exit 0, within the shutdown limit. Then Ctrl-C (SIGINT to
// the group), and the script's parent killed (npm gone).

const root = new URL('../../../', import.meta.url).pathname;
const SECRET = 'stop-process-test-secret-0123456789abcdef';
const LIMIT_MS = 10_000;
const SUPERVISED = `import { superviseChild } from './scripts/supervise.mjs'; superviseChild(['--import', 'tsx', 'apps/server/src/main.ts']);`;

let dbUrl = '';
let dropDatabase: (() => Promise<void>) | undefined;
let dataDir = '';
const groups: number[] = [];

const env = () => serverProcessEnv({ dbUrl, secret: SECRET, dataDir }, { LOG_PRETTY: 'false', SHUTDOWN_TIMEOUT_MS: String(LIMIT_MS) });

/** `command` in its own process group (detached), stdout and stderr on pipes; `embedded`: on PGlite, as `npm start`. */
function startGroup(command: string, args: string[], embedded = false): ChildProcess {
  const embeddedEnv: Record<string, string | undefined> = { ...env(), DATA_DIR: join(dataDir, 'embedded'), DATABASE_URL: undefined };
  const proc = spawn(command, args, { cwd: root, env: embedded ? embeddedEnv : env(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  groups.push(proc.pid!);
  proc.stderr!.on('data', () => {});
  return proc;
}

const exitOf = (proc: ChildProcess) => (proc.exitCode !== null ? Promise.resolve(proc.exitCode) : once(proc, 'exit').then(([code]) => code as number | null));

describeOnPostgres('stopping `npm start` as a service or from a terminal', () => {
  beforeAll(async () => {
    const template = inject('dbTemplate');
    if (template.kind !== 'postgres') throw new Error('needs the PostgreSQL template');
    ({ url: dbUrl, drop: dropDatabase } = await copyTemplateDatabase(template));
    dataDir = await mkdtemp(join(tmpdir(), 'cellport-stop-'));
  }, 120_000);
  afterAll(async () => {
    for (const pgid of groups) { try { process.kill(-pgid, 'SIGKILL'); } catch { /* gone */ } }
    await dropDatabase?.();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  // On the embedded database (npm start's default) the stop writes its log lines after the pipe closed: pino's stdout
  // destination retried them forever and the server never exited.
  it('SIGTERM to the whole group with the log pipe closed at once: one graceful stop, exit 0 within the limit', async () => {
    const proc = startGroup(process.execPath, ['--input-type=module', '-e', SUPERVISED], true);
    await watched(proc).line(/Cellport is ready at/, 'the server ready');
    process.kill(-proc.pid!, 'SIGTERM');
    proc.stdout!.destroy();
    proc.stderr!.destroy();
    // Exit 0 only comes from the last step of the graceful path (a forced or failed stop exits 1).
    expect(await within(exitOf(proc), LIMIT_MS, 'the supervised server to exit')).toBe(0);
  }, 180_000);

  it('Ctrl-C (SIGINT to the group) is one graceful stop, not "asked again"', async () => {
    const proc = startGroup(process.execPath, ['--input-type=module', '-e', SUPERVISED]);
    const log = watched(proc);
    await log.line(/Cellport is ready at/, 'the server ready');
    process.kill(-proc.pid!, 'SIGINT');
    expect(await within(exitOf(proc), LIMIT_MS, 'the supervised server to exit')).toBe(0);
    expect(log.output()).toContain('shutdown 4/4: database closed; exiting 0');
    expect(log.output()).not.toContain('asked again, exiting now');
  }, 180_000);

  it('the start script\'s parent killed (npm gone): the server stops gracefully', async () => {
    // npm runs the script through `sh -c`; killing npm ends the shell and leaves the script to init.
    const shell = startGroup('sh', ['-c', `${JSON.stringify(process.execPath)} --input-type=module -e ${JSON.stringify(SUPERVISED)}`]);
    const log = watched(shell);
    await log.line(/Cellport is ready at/, 'the server ready');
    shell.kill('SIGKILL');
    // The pipe ends when every process holding it (the script, the server) has exited.
    const ended = once(shell.stdout!, 'end');
    await within(ended, LIMIT_MS + 5_000, 'the script and the server to exit');
    expect(log.output()).toContain('shutdown 4/4: database closed; exiting 0');
  }, 180_000);
});
