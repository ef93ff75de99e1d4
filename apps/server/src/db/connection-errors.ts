/** Socket errors that mean the database cannot be reached (refused, reset, unreachable, timed out). */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs of a database that is not there to answer: class 08 (connection exception), 57P01–57P03 (shut down by
 * an administrator or a crash, not accepting connections yet) and 53300 (too many connections).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[1-3]|53300)$/;

/** What node-postgres says when a connection ends under a query, or the pool gives up waiting for one. */
const PG_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

/**
 * True when `err` (or its cause) says the database could not be reached or the connection was lost — a failure of
 * the moment, answered 503 (plugins/errors.ts), not a bug in the request or the code.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (typeof e !== 'object') return false;
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
    if (typeof message === 'string' && PG_MESSAGES.some((m) => message.startsWith(m))) return true;
  }
  return false;
}
