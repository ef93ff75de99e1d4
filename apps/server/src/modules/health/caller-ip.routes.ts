import { CALLER_IP_PATH, callerIpResponseSchema } from '@cellport/shared/schemas/caller-ip';
import type { App } from '../../context.js';

/** `::ffff:203.0.113.5` (an IPv4 client of a dual-stack socket) → `203.0.113.5`; anything else as it is. */
export function plainAddress(address: string): string {
  return address.toLowerCase().startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/**
 * GET /api/v1/ip: the caller's address as plain text, for "which IP does my proxy send from". No session, never
 * cached, limited per address. Behind a reverse proxy in production (trustProxy), request.ip is the client's.
 */
export function registerCallerIp(app: App): void {
  app.get(CALLER_IP_PATH, {
    config: { crossSite: true, rateLimit: { max: 120, timeWindow: '1 minute' } },
    schema: {
      tags: ['modems'],
      summary: 'The address this request comes from, as plain text (through a proxy port: the modem\'s IP)',
      response: { 200: callerIpResponseSchema },
    },
  }, async (request, reply) => reply
    .header('cache-control', 'no-store')
    .type('text/plain; charset=utf-8')
    .send(`${plainAddress(request.ip)}\n`));
}
