/**
 * What a process that could not start prints: one line an operator can act on for the mistakes an operator makes (a
 * wrong setting, a port another process holds), the whole error with its stack for anything else (a bug).
 * `ports` names the setting behind each port this process listens on, so a busy one is named by its setting.
 */
export function startupFailure(err: unknown, known: (err: unknown) => boolean, ports: Record<number, string> = {}): string {
  if (known(err)) return (err as Error).message;
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number };
  if (e instanceof Error && e.syscall === 'listen' && e.code && e.code in LISTEN_FAILURES) {
    const setting = e.port !== undefined && ports[e.port] ? `${ports[e.port]} ` : '';
    return `Cannot start: ${setting}${e.address ?? ''}:${e.port ?? '?'} ${LISTEN_FAILURES[e.code]} (${e.code})`;
  }
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}

const LISTEN_FAILURES: Record<string, string> = {
  EADDRINUSE: 'is in use by another process (another gateway or agent still running?)',
  EACCES: 'needs privileges this process does not have (a port below 1024?)',
  EADDRNOTAVAIL: 'is not an address of this machine',
};
