import type { FastifyBaseLogger } from 'fastify';

interface ErrorOut { err(line: string): void }

/**
 * The logger the composed services get inside a CLI command: errors and warnings reach the operator on stderr as
 * one line each; the rest (info, debug) is for a server's log, not a terminal.
 */
export function cliLogger(io: ErrorOut): FastifyBaseLogger {
  const say = (level: string) => (obj: unknown, msg?: string) => {
    io.err(`${level}: ${typeof obj === 'string' ? obj : msg ?? ''}${obj instanceof Error ? ` (${obj.message})` : ''}`);
  };
  const quiet = () => {};
  const logger = {
    level: 'warn',
    fatal: say('fatal'), error: say('error'), warn: say('warn'),
    info: quiet, debug: quiet, trace: quiet, silent: quiet,
    child: () => logger,
  };
  return logger as unknown as FastifyBaseLogger;
}
