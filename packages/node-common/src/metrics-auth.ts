import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The /metrics rule of the server, the agent and the gateway (issue 17, item 2), in one place: no token set means
 * /metrics does not exist (404); with one, `Authorization: Bearer <token>` or 401.
 */
export type MetricsVerdict = 'off' | 'unauthorized' | 'ok';

export const METRICS_CHALLENGE = 'Bearer realm="metrics"';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Judges a request's Authorization header against `token` (undefined or empty: metrics are off). */
export function metricsBearer(token: string | undefined): (authorization: string | undefined) => MetricsVerdict {
  const expected = token ? digest(token) : null;
  return (authorization) => {
    if (!expected) return 'off';
    const given = authorization?.startsWith('Bearer ') ? authorization.slice(7).trim() : '';
    // Digests of equal length, compared in constant time: neither the token nor its length leaks through timing.
    return given && timingSafeEqual(digest(given), expected) ? 'ok' : 'unauthorized';
  };
}
