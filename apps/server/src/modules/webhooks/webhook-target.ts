import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { blockListOf } from '@cellport/node-common/refused-addresses';
import { describePorts, portAllowed, urlPort, type PortList } from '../../lib/webhook-ports.js';

/**
 * Where a webhook may go (SSRF, issue 16): never to a private, loopback, link-local or otherwise special address.
 * The host is resolved first and every address it resolves to must pass; the request then connects to the vetted
 * address only (no second lookup an attacker's DNS could answer differently), the connected socket's address is
 * checked once more, and redirects are never followed (a 3xx is a failed delivery). Only the ports of
 * WEBHOOKS_ALLOWED_PORTS are used (lib/webhook-ports.ts), checked when an endpoint is saved and again before connecting.
 * `allowLoopback` (WEBHOOKS_ALLOW_LOOPBACK, UNSAFE) lets 127.0.0.0/8 and ::1 through for tests and the demo.
 */
// The refused-address table is shared with the agent's target policy (@cellport/node-common/refused-addresses).
const special = blockListOf('special', 'private');
const linkLocal = blockListOf('link-local');
const loopback = blockListOf('loopback');

export class WebhookRefusedError extends Error {}

/** Why an address is refused ('loopback', 'link-local', 'private'), or null when a webhook may go there. */
export function addressRefusal(address: string, allowLoopback: boolean): 'loopback' | 'link-local' | 'private' | null {
  let ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  // IPv4-mapped IPv6 (::ffff:10.0.0.1, or its hex form) is the IPv4 address.
  const mapped = /^::ffff:(?:0:)?(.+)$/i.exec(ip)?.[1];
  if (mapped) {
    if (isIP(mapped) === 4) ip = mapped;
    else {
      const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(mapped);
      if (!hex) return 'private';
      const n = (parseInt(hex[1]!, 16) << 16) | parseInt(hex[2]!, 16);
      ip = [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
    }
  }
  const family = isIP(ip);
  if (!family) return 'private';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (loopback.check(ip, type)) return allowLoopback ? null : 'loopback';
  if (linkLocal.check(ip, type)) return 'link-local';
  if (special.check(ip, type)) return 'private';
  return null;
}

export interface WebhookPost { url: string; headers: Record<string, string>; body: string }
export interface WebhookAnswer { status: number | null; latencyMs: number; error: string | null }
export interface TargetPolicy { allowLoopback: boolean; timeoutMs: number; allowedPorts: PortList }

const isLoopbackHost = (hostname: string) => {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || (isIP(host) > 0 && addressRefusal(host, false) === 'loopback');
};

/**
 * When an endpoint is saved: the URL's port if the settings refuse it, else null. A loopback host (a literal address,
 * localhost) under WEBHOOKS_ALLOW_LOOPBACK may use any port; a name is judged by its address at delivery.
 */
export function refusedPort(url: URL, policy: Pick<TargetPolicy, 'allowLoopback' | 'allowedPorts'>): number | null {
  const port = urlPort(url);
  if (portAllowed(policy.allowedPorts, port) || (policy.allowLoopback && isLoopbackHost(url.hostname))) return null;
  return port;
}

const portRefusal = (port: number, allowed: PortList) => `refused: port ${port} is not allowed for webhooks (${describePorts(allowed)})`;

/** Resolves the URL's host to one address every check passes, or throws WebhookRefusedError. */
export async function vetTarget(url: URL, allowLoopback: boolean): Promise<{ address: string; family: 4 | 6 }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) as 4 | 6 }]
    : (await lookup(host, { all: true, verbatim: true }).catch(() => {
      throw new WebhookRefusedError(`${host} does not resolve`);
    })).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
  if (!addresses.length) throw new WebhookRefusedError(`${host} does not resolve`);
  for (const a of addresses) {
    const why = addressRefusal(a.address, allowLoopback);
    if (why) throw new WebhookRefusedError(`refused: ${host} is a ${why} address (${a.address})`);
  }
  return addresses[0]!;
}

/** How much of an answer's body is read (and dropped); past it the status alone counts. */
export const ANSWER_BODY_CAP = 16_384;

/**
 * One POST, the outcome as the delivery log shows it; never throws. `timeoutMs` bounds the whole exchange — the
 * lookup, connecting, sending, the headers and the body — not the time between bytes, so an endpoint that answers
 * 200 and then drips its body cannot hold the delivery past it (issue 26). Accepted means a 2xx whose body came
 * complete (or past the cap); a body cut off before its end is a failure.
 */
export async function postWebhook(post: WebhookPost, policy: TargetPolicy): Promise<WebhookAnswer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = new URL(post.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebhookRefusedError('only http and https addresses');
  } catch (err) {
    return { status: null, latencyMs: 0, error: err instanceof WebhookRefusedError ? err.message : 'invalid address' };
  }
  // A port outside the list is refused before any lookup, unless the address may turn out loopback (checked below).
  const portOk = portAllowed(policy.allowedPorts, urlPort(url));
  if (!portOk && !policy.allowLoopback) return { status: null, latencyMs: 0, error: portRefusal(urlPort(url), policy.allowedPorts) };
  return new Promise<WebhookAnswer>((resolve) => {
    let request: http.ClientRequest | undefined;
    let status: number | null = null;
    let settled = false;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      request?.destroy();
      resolve({ status, latencyMs: elapsed(), error });
    };
    const deadline = setTimeout(() => finish(`no complete answer within ${policy.timeoutMs} ms`), policy.timeoutMs);
    vetTarget(url, policy.allowLoopback).then((target) => {
      if (settled) return;
      if (!portOk && addressRefusal(target.address, false) !== 'loopback') {
        finish(portRefusal(urlPort(url), policy.allowedPorts));
        return;
      }
      const pinned: LookupFunction = (_host, options, callback) => {
        if (options.all) callback(null, [{ address: target.address, family: target.family }]);
        else callback(null, target.address, target.family);
      };
      request = (url.protocol === 'https:' ? https : http).request(url, {
        method: 'POST', agent: false, lookup: pinned,
        headers: { ...post.headers, 'content-length': String(Buffer.byteLength(post.body)) },
      });
      request.on('socket', (socket: Socket) => {
        const check = () => {
          const remote = socket.remoteAddress;
          const why = remote ? addressRefusal(remote, policy.allowLoopback) : 'private';
          if (why) finish(`refused: connected to a ${why} address (${remote})`);
        };
        if (socket.remoteAddress) check(); else socket.once('connect', check);
      });
      request.on('response', (response) => {
        status = response.statusCode ?? 0;
        const verdict = status >= 200 && status < 300 ? null
          : status >= 300 && status < 400 ? `redirect to ${String(response.headers.location ?? '?').slice(0, 200)} not followed`
          : `HTTP ${status}`;
        // The body is read to its end, at most the cap, and dropped; a redirect is reported, never followed.
        let seen = 0;
        response.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > ANSWER_BODY_CAP) finish(verdict);
        });
        response.on('end', () => finish(verdict));
        // Closed before its end (a Content-Length never reached, a chunked body never terminated): not an answer.
        response.on('close', () => finish(verdict ?? 'the answer was cut off before its end'));
        response.on('error', () => finish(verdict ?? 'the answer was cut off before its end'));
      });
      request.on('error', (err) => finish(err.message.slice(0, 300)));
      request.end(post.body);
    }, (err: unknown) => finish((err as Error).message));
  });
}
