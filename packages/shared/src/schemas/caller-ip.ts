import * as z from 'zod/mini';
import { text } from './text.js';

// GET /api/v1/ip: the address the server sees the request come from, as plain text. Through one of our proxies that
// is the modem's address, so it is the "what is my IP" target the dashboard's curl lines use (no third party).

export * from './caller-ip-path.js';

/** The caller's IPv4 or IPv6 address, without the `::ffff:` of an IPv4-mapped address. */
export const callerIpResponseSchema = text().check(z.maxLength(64));
