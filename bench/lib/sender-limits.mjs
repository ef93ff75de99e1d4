// What held a bulk sender back, as its kernel saw it (tcp_info through `ss -ti`): the share of its busy time it was
// limited by the receiver's window (rwnd_limited) and by its send buffer (sndbuf_limited). Rates swing with a shared
// machine's load; these shares say whether a slower download waited on the receiving end's window (its window scale
// or buffers) or on something else (CPU, the path). `ss` is polled while the transfer runs (tcp_info lives with the
// socket) into a file, each sample replacing the last (the bench's own loop is blocked meanwhile), so what is read
// after is the transfer's last sample.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Starts watching the sockets of `ns` whose local port is `port`; stop() resolves with the last sample's shares. */
export function watchSender(ns, port) {
  const dir = mkdtempSync(join(tmpdir(), 'sender-limits-'));
  const file = join(dir, 'last');
  const child = spawn('ip', ['netns', 'exec', ns, 'sh', '-c',
    `while :; do ss -tinH "( sport = :${port} )" > ${file}.new; grep -q busy: ${file}.new && mv ${file}.new ${file}; sleep 0.05; done`],
  { stdio: 'ignore', detached: true });
  return {
    stop: () => new Promise((resolve) => {
      // A moment for the poll to see the finished transfer.
      setTimeout(() => {
        try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
        let last = '';
        try { last = readFileSync(file, 'utf8'); } catch { /* no sample */ }
        rmSync(dir, { recursive: true, force: true });
        const share = (name) => Number(new RegExp(`${name}:\\d+ms\\(([\\d.]+)%\\)`).exec(last)?.[1] ?? 0);
        resolve({ rwndLimited: share('rwnd_limited'), sndbufLimited: share('sndbuf_limited'), seen: last !== '' });
      }, 120);
    }),
  };
}
