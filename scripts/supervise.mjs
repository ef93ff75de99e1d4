// The child process that `npm start`, `npm run agent` and `npm run gateway` run (scripts/start.mjs, agent.mjs), and
// how a stop request reaches it: one request is one graceful stop (issue 26, item 13; issue 28, item 7).
// - A supervisor (systemd, docker) or a terminal (Ctrl-C) signals the whole process group: the child gets the signal
//   itself, and this script gets it once or twice more (npm forwards it too). The script forwards the first signal of
//   a burst (a child run on its own needs it) and not its echoes: a child would take those for "asked again, exit now".
//   A signal a second or more later is a new request and is forwarded (a second Ctrl-C forces).
// - When this script's parent goes away (npm killed: its `sh -c` dies with it and this script is left to init), the
//   child is asked to stop as by SIGTERM, so no server, agent or gateway is left running without its npm.
// - This script exits with the child's code.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

const SAME_REQUEST_MS = 1000;
const PARENT_CHECK_MS = 500;

/** Runs `node ...args` and stays until it exits; returns nothing (the process exits with the child). */
export function superviseChild(args) {
  // Output is the child's (inherited); an error on ours (the reader went away) must not end this script first.
  for (const out of [process.stdout, process.stderr]) out.on('error', () => {});
  const child = spawn(process.execPath, args, { stdio: 'inherit' });
  let forwardedAt = 0;
  const forward = (signal) => {
    if (Date.now() - forwardedAt < SAME_REQUEST_MS) return;
    forwardedAt = Date.now();
    child.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => forward(signal));
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch); // once: a later forward would be "asked again"
    forward('SIGTERM');
  }, PARENT_CHECK_MS);
  child.on('exit', (code, signal) => {
    clearInterval(watch);
    process.exit(code ?? 128 + (constants.signals[signal] ?? 0));
  });
}
