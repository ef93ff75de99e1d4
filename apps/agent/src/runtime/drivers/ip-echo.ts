import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';

/**
 * Asks an IP-echo URL (it answers the caller's address as plain text, like the Cellport server's `/api/v1/ip`) which
 * address a request from `localAddress` reaches the internet with: the modem's public IP. A HiLink's WanIPAddress
 * or a bearer's address is usually the carrier's CGNAT address, so only this measurement is the customer's IP.
 */
export async function echoIp(url: string, localAddress: string | undefined, timeoutMs: number): Promise<string> {
  const target = new URL(url);
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  // Without a local address the request leaves by the host's own route (echoAnswersTheHost), not through a modem.
  const from = localAddress ? { localAddress, family: isIP(localAddress) === 6 ? 6 : 4 } : {};
  return new Promise((resolve, reject) => {
    const req = request(target, {
      method: 'GET', ...from, agent: false,
      headers: { accept: 'text/plain', 'user-agent': 'cellport-agent' }, timeout: timeoutMs,
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { body += chunk; if (body.length > 200) req.destroy(new Error('the answer is not an IP address')); });
      res.on('end', () => {
        const ip = body.trim();
        if (res.statusCode !== 200) return reject(new Error(`${url} answered HTTP ${res.statusCode}`));
        if (!isIP(ip)) return reject(new Error(`${url} did not answer an IP address`));
        resolve(ip);
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${url} did not answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

export interface IpEchoOptions {
  urls: string[];
  /** One request's limit. */
  requestTimeoutMs: number;
  /** How long to keep trying (the link may need a few seconds after a reconnect). */
  deadlineMs: number;
  pauseMs?: number;
}

/** The public IP behind `localAddress`: each URL in turn, again and again until one answers or the deadline passes. */
export async function measurePublicIp(localAddress: () => string, options: IpEchoOptions): Promise<string> {
  const until = Date.now() + options.deadlineMs;
  let last: unknown = new Error('no IP-echo URL configured');
  for (;;) {
    for (const url of options.urls) {
      try {
        return await echoIp(url, localAddress(), options.requestTimeoutMs);
      } catch (err) {
        last = err;
      }
    }
    if (Date.now() + (options.pauseMs ?? 1000) >= until) break;
    await new Promise((r) => setTimeout(r, options.pauseMs ?? 1000));
  }
  throw new Error(`the public IP could not be measured through the modem: ${(last as Error).message}`);
}

/**
 * Whether any of the IP echoes answers the host itself (its own route, not a modem): a modem through which no echo
 * answers is only suspect when one does. When none does, the echoes (or the server, the default echo) are down, or
 * the host's own network is: nothing that a reconnect or a reboot of a modem could help.
 */
export async function echoAnswersTheHost(urls: string[], timeoutMs: number): Promise<boolean> {
  const answers = await Promise.allSettled(urls.map((url) => echoIp(url, undefined, timeoutMs)));
  return answers.some((a) => a.status === 'fulfilled');
}
