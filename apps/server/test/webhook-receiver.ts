import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got. */
export interface Received { path: string; headers: IncomingHttpHeaders; body: string }
/**
 * How the receiver answers a request: a status; 'hold' (never answers, as a hung endpoint); 'drip' (200 with a
 * Content-Length of a megabyte, then a byte every 50 ms until the client leaves: an endpoint that keeps a delivery
 * open without ever going idle); 'truncate' (200 with a Content-Length of 1000, 7 bytes, then the connection closes);
 * 'flood' (200 with a Content-Length of a megabyte, 32 KiB at once, then a drip of the rest).
 */
export type Answer = number | 'hold' | 'drip' | 'truncate' | 'flood';
const DRIP_EVERY_MS = 50;

/**
 * A customer's webhook endpoint for tests: a real HTTP server on 127.0.0.1 that records every request and answers
 * each path with the statuses queued for it, then 204 (`/redirect` answers a 302 to `/landing`). Waits are for the
 * requests themselves (`nth`, `next`), never for time. Used by the server tests, the crash test and the browser test.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  /** Statuses to answer, per path, in order; past them 204. */
  readonly answers = new Map<string, Answer[]>();
  url = '';
  private server!: Server;
  private readonly held: ServerResponse[] = [];
  /** Drips still going, with their path. */
  private readonly drips = new Map<ServerResponse, string>();
  private readonly waiting = new Set<() => void>();

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    receiver.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        receiver.received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        receiver.answer(path, res);
        for (const wake of receiver.waiting) wake();
      });
    });
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
    return receiver;
  }

  at(path: string): Received[] { return this.received.filter((r) => r.path === path); }

  /** The n-th request (1-based), as soon as it has arrived. */
  nth(n: number, timeoutMs = 60_000): Promise<Received> {
    return this.when(() => this.received[n - 1], timeoutMs, () => `request ${n} at the receiver (got ${this.received.length})`);
  }

  /** The first request that matches, as soon as it has arrived. */
  next(match: (r: Received) => boolean, timeoutMs = 60_000): Promise<Received> {
    return this.when(() => this.received.find(match), timeoutMs, () => `a matching request at the receiver (got ${this.received.length})`);
  }

  /** True while a drip answer at this path is still connected. */
  dripping(path: string): boolean { return [...this.drips.values()].includes(path); }

  /** Resolves once no drip answer at this path is connected (the client left, or `cutDrips`). */
  dripsEnded(path: string, timeoutMs = 60_000): Promise<true> {
    return this.when(() => (this.dripping(path) ? undefined : true), timeoutMs, () => `end of the drip at ${path}`);
  }

  /** The receiver closes its drips at this path, mid-body. */
  cutDrips(path: string): void {
    for (const [res, at] of this.drips) if (at === path) res.destroy();
  }

  async stop(): Promise<void> {
    for (const res of this.held) res.destroy();
    for (const res of this.drips.keys()) res.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private answer(path: string, res: ServerResponse): void {
    if (path === '/redirect') { res.writeHead(302, { location: `${this.url}/landing` }).end(); return; }
    const answer = this.answers.get(path)?.shift() ?? 204;
    if (answer === 'hold') { this.held.push(res); return; }
    if (answer === 'truncate') {
      res.writeHead(200, { 'content-length': '1000' });
      res.write('partial', () => res.destroy());
      return;
    }
    if (answer === 'drip' || answer === 'flood') {
      res.writeHead(200, { 'content-length': String(1 << 20) });
      // The status goes out at once, as a dripping server's would: Node holds headers until the first write, and a
      // drip cut before its first byte would look like no answer at all (socket hang up) rather than a cut-off 200.
      res.flushHeaders();
      if (answer === 'flood') res.write(Buffer.alloc(32_768, 'x'));
      const timer = setInterval(() => res.write('.'), DRIP_EVERY_MS);
      this.drips.set(res, path);
      res.on('close', () => {
        clearInterval(timer);
        this.drips.delete(res);
        for (const wake of this.waiting) wake();
      });
      return;
    }
    res.writeHead(answer).end(answer >= 400 ? 'nope' : '');
  }

  private when<T>(find: () => T | undefined, timeoutMs: number, what: () => string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const check = () => {
        const found = find();
        if (found === undefined) return;
        this.waiting.delete(check);
        clearTimeout(timer);
        resolve(found);
      };
      const timer = setTimeout(() => { this.waiting.delete(check); reject(new Error(`no ${what()} in ${timeoutMs} ms`)); }, timeoutMs);
      this.waiting.add(check);
      check();
    });
  }
}

/** Verifies a delivery with the independent Standard Webhooks implementation; throws when the signature is wrong. */
export function verifyDelivery(secret: string, r: Pick<Received, 'headers' | 'body'>): unknown {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']), 'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });
}
