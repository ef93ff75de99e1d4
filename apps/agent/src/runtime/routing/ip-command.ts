import { execFile } from 'node:child_process';

// iproute2's `ip`, run without a shell (each argument one argv word) and read as JSON (`ip -j`).

/** Runs `ip <args>` and resolves with its stdout; rejects with an error that names the command and ip's own message. */
export type IpRunner = (args: readonly string[]) => Promise<string>;

const TIMEOUT_MS = 10_000;

export class IpCommandError extends Error {
  constructor(readonly command: string, readonly stderr: string, cause?: unknown) {
    super(`\`${command}\` failed: ${stderr.trim() || (cause as Error | undefined)?.message || 'unknown error'}`);
  }
}

export const runIp: IpRunner = (args) => new Promise((resolve, reject) => {
  execFile('ip', [...args], { timeout: TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
    if (!err) return resolve(stdout);
    const code = (err as NodeJS.ErrnoException).code;
    reject(new IpCommandError(`ip ${args.join(' ')}`, code === 'ENOENT'
      ? 'the ip command is not installed (apt-get install iproute2)' : String(stderr), err));
  });
});

/** `ip -j <args>` as parsed JSON; a routing table that does not exist yet reads as empty. */
export async function ipJson<T>(run: IpRunner, args: readonly string[]): Promise<T[]> {
  let out: string;
  try {
    out = await run(['-j', ...args]);
  } catch (err) {
    if (err instanceof IpCommandError && /FIB table does not exist/.test(err.stderr)) return [];
    throw err;
  }
  if (!out.trim()) return [];
  try {
    return JSON.parse(out) as T[];
  } catch {
    throw new IpCommandError(`ip -j ${args.join(' ')}`, `its output is not JSON: ${out.slice(0, 200)}`);
  }
}
