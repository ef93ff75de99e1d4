import type { IncomingMessage } from 'node:http';
import type { Config } from '../config.js';

/**
 * Whether X-Forwarded-For is believed: Fastify's `trustProxy` (app.ts) and the realtime handshake, which socket.io
 * serves outside Fastify, take this one answer, so a per-address limit counts the same client either way.
 */
export const trustsForwardedFor = (config: Pick<Config, 'isProduction'>): boolean => config.isProduction;

/** The client's address of a raw request, as Fastify's `request.ip` reads it with `trustProxy: trust` (a boolean). */
export function clientAddress(req: IncomingMessage, trust: boolean): string {
  const peer = req.socket.remoteAddress ?? '';
  const forwarded = req.headers['x-forwarded-for'];
  if (!trust || typeof forwarded !== 'string') return peer;
  // Every hop trusted: the furthest one, the first in the list (proxy-addr's answer for `trust: true`).
  return forwarded.split(',')[0]?.trim() || peer;
}
