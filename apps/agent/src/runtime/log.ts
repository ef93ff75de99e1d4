import type { Logger } from '../proxy/types.js';

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

/**
 * JSON lines on stdout, one per event: the server's embedded launcher relays them into its own log, and on a real
 * host journald or docker collects them. Small on purpose: the agent logs rarely (no line per connection).
 */
export interface AgentLogger extends Logger {
  /** Lines for whoever debugs (LOG_LEVEL=debug): one per health round, which tests wait for. */
  debug(fields: object, message: string): void;
  child(fields: object): AgentLogger;
}

export function createLogger(level: LogLevel, base: object = {}, write: (line: string) => void = (l) => process.stdout.write(l)): AgentLogger {
  const min = LEVELS[level];
  const emit = (lvl: Exclude<LogLevel, 'silent'>) => (fields: object, msg: string) => {
    if (LEVELS[lvl] < min) return;
    write(`${JSON.stringify({ level: lvl, time: new Date().toISOString(), ...base, ...fields, msg }, errorReplacer)}\n`);
  };
  return {
    debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error'),
    child: (fields: object) => createLogger(level, { ...base, ...fields }, write),
  };
}

function errorReplacer(_key: string, value: unknown): unknown {
  return value instanceof Error ? { message: value.message, code: (value as NodeJS.ErrnoException).code } : value;
}
