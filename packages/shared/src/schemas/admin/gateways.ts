import * as z from 'zod/mini';
import { GATEWAY_LINK_STATES } from '../gateway-protocol.js';
import { text } from '../text.js';
import { isoDate, trimmedText, uuid } from './common.js';

// Operator console, Inventory → Gateways (issue 18, docs/decisions/031-gateway.md): public relays for hosts behind
// NAT. Customers connect to a gateway's public host on their port's numbers; a pinned host's agent dials the gateway's
// link URL. Same conventions as common.ts (camelCase, ISO dates, every route under /api/v1/admin, audited writes).

export const GATEWAY_MESSAGES = {
  publicHost: 'Enter a host name (proxy.example.com) or an IP address',
  linkUrl: 'Enter an http:// or https:// address without a user, path or query, for example http://gw.example.com:7400',
} as const;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * A DNS name (letters, digits and hyphens per label, at least one dot or a single label such as `localhost`) or an
 * IPv4 or IPv6 address: what customers' proxy settings will name, so no scheme, port or path.
 */
export function isHostOrIp(value: string): boolean {
  if (value.length === 0 || value.length > 253) return false;
  if (IPV4.test(value)) return true;
  if (value.includes(':')) return z.safeParse(z.ipv6(), value).success;
  // All-numeric dotted names are mistyped IPv4 addresses, not host names.
  if (/^[\d.]+$/.test(value)) return false;
  return value.split('.').every((label) => LABEL.test(label));
}

/** An http(s) URL with a host and nothing an agent would drop or leak (user, query, fragment; the path is replaced). */
export function isLinkUrl(value: string): boolean {
  let url: URL;
  try { url = new URL(value); } catch { return false; }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && !url.username && !url.password
    && (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
}

/** The gateway a host is pinned to, as the hosts list shows it. */
export const hostGatewaySchema = z.object({ id: uuid, name: text(), publicHost: text() });
export type HostGateway = z.infer<typeof hostGatewaySchema>;

/** What the host's agent last reported of its link to the gateway, and since when; `problem` says why when not up. */
export const hostGatewayLinkSchema = z.object({
  state: z.enum(GATEWAY_LINK_STATES),
  problem: z.nullable(text()),
  changedAt: isoDate,
});
export type HostGatewayLink = z.infer<typeof hostGatewayLinkSchema>;

/**
 * GET /admin/gateways — each gateway with the hosts pinned to it and how many of them are linked now (the agent
 * reports its link up and the host is online).
 */
export const gatewaySchema = z.object({
  id: uuid,
  name: text(),
  publicHost: text(),
  linkUrl: text(),
  hostCount: z.number(),
  linkedHostCount: z.number(),
  createdAt: isoDate,
});
export type Gateway = z.infer<typeof gatewaySchema>;
/**
 * `trustKey`: the public half of the server's gateway trust key (GATEWAY_TRUST_KEY), the same for every gateway; it
 * only lets a gateway check tickets, so showing it to operators is safe.
 */
export const gatewaysResponseSchema = z.object({ items: z.array(gatewaySchema), trustKey: text() });
export type GatewaysResponse = z.infer<typeof gatewaysResponseSchema>;

/** POST /admin/gateways; PATCH /admin/gateways/:id takes any of its fields. */
export const gatewayRequestSchema = z.object({
  name: trimmedText(64),
  /** What customers connect to. */
  publicHost: text().check(z.trim(), z.toLowerCase(), z.refine(isHostOrIp, GATEWAY_MESSAGES.publicHost)),
  /** What the pinned hosts' agents dial. */
  linkUrl: text().check(z.trim(), z.maxLength(300, GATEWAY_MESSAGES.linkUrl), z.refine(isLinkUrl, GATEWAY_MESSAGES.linkUrl)),
});
export const gatewayPatchRequestSchema = z.partial(gatewayRequestSchema);
export const gatewayResponseSchema = z.object({ gateway: gatewaySchema });
export type GatewayRequest = z.input<typeof gatewayRequestSchema>;
export type GatewayPatchRequest = z.input<typeof gatewayPatchRequestSchema>;
export type GatewayResponse = z.infer<typeof gatewayResponseSchema>;
