/**
 * The server's log lines on stdout, never holding the process. When the reader goes away (a supervisor that stopped
 * the server and closed the pipe it read from: EPIPE), logging ends and everything else goes on, the graceful stop
 * included. pino's own stdout destination (sonic-boom 4) retries a failed write forever when the process exits, so a
 * stopped server whose log pipe had closed never exited (issue 26, item 13).
 */
export function stdoutLogStream(out: NodeJS.WritableStream = process.stdout): { write(line: string): void } {
  let open = true;
  out.on('error', () => { open = false; });
  return { write(line) { if (open) out.write(line); } };
}
