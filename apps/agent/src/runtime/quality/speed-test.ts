import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { SPEED_TEST } from '@cellport/shared/schemas/host-protocol';

// One bounded speed test through a modem's egress (issue 27, item 8): three tiny requests for the round trip (the
// median), one download of `downloadBytes` and one upload of `uploadBytes` against the speed-test target (default: the
// server's own SPEED_TEST.path, which answers only a host key). Each request has its own deadline, so a test never
// costs more than those bytes and those seconds.

export interface SpeedTestOptions {
  /** The target's base URL: GET ?bytes=N sends N bytes, POST counts the body (SPEED_TEST's contract). */
  url: string;
  /** Sent as `Authorization: Bearer`; the server's target answers only a host key. */
  key?: string;
  downloadBytes: number;
  uploadBytes: number;
  timeoutMs: number;
}

export interface SpeedResult { latencyMs: number; downMbps: number; upMbps: number }

const mbps = (bytes: number, ms: number) => Math.round((bytes * 8) / Math.max(ms, 1) / 1000 * 100) / 100;

function send(options: SpeedTestOptions, localAddress: string, method: 'GET' | 'POST', bytes: number): Promise<{ ms: number; received: number }> {
  const target = new URL(options.url);
  if (method === 'GET') target.searchParams.set('bytes', String(bytes));
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const from = { localAddress, family: isIP(localAddress) === 6 ? 6 : 4 };
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(target, {
      method, ...from, agent: false, timeout: options.timeoutMs,
      headers: {
        'user-agent': 'cellport-agent', ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
        ...(method === 'POST' ? { 'content-type': 'application/octet-stream', 'content-length': String(bytes) } : {}),
      },
    }, (res: IncomingMessage) => {
      let received = 0;
      res.on('data', (chunk: Buffer) => { received += chunk.length; });
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`${options.url} answered HTTP ${res.statusCode}`));
        resolve({ ms: performance.now() - started, received });
      });
      res.on('error', reject);
    });
    // The deadline is for the whole exchange, not only for silence.
    const deadline = setTimeout(() => req.destroy(new Error(`${options.url} took longer than ${options.timeoutMs} ms`)), options.timeoutMs);
    req.on('close', () => clearTimeout(deadline));
    req.on('timeout', () => req.destroy(new Error(`${options.url} did not answer within ${options.timeoutMs} ms`)));
    req.on('error', reject);
    if (method === 'POST') {
      // Written in 64 KiB pieces with backpressure: the time counts the modem's uplink, not one big buffer copy.
      const piece = Buffer.alloc(Math.min(64 * 1024, Math.max(bytes, 1)), 0x5a);
      let left = bytes;
      const write = () => {
        while (left > 0) {
          const n = Math.min(left, piece.length);
          left -= n;
          if (!req.write(n === piece.length ? piece : piece.subarray(0, n))) return void req.once('drain', write);
        }
        req.end();
      };
      write();
    } else {
      req.end();
    }
  });
}

/** Measures latency, download and upload through `localAddress` (the modem's egress). Throws when a request fails. */
export async function speedTest(options: SpeedTestOptions, localAddress: string): Promise<SpeedResult> {
  const rounds: number[] = [];
  for (let i = 0; i < 3; i++) rounds.push((await send(options, localAddress, 'GET', 0)).ms);
  rounds.sort((a, b) => a - b);
  const latencyMs = Math.round(rounds[1]!);
  const down = await send(options, localAddress, 'GET', Math.min(options.downloadBytes, SPEED_TEST.maxBytes));
  if (down.received < Math.min(options.downloadBytes, SPEED_TEST.maxBytes)) throw new Error(`${options.url} sent ${down.received} of ${options.downloadBytes} bytes`);
  const up = await send(options, localAddress, 'POST', Math.min(options.uploadBytes, SPEED_TEST.maxBytes));
  // The transfer time is the exchange less one round trip (the request and the answer's headers).
  return {
    latencyMs,
    downMbps: mbps(down.received, down.ms - latencyMs),
    upMbps: mbps(Math.min(options.uploadBytes, SPEED_TEST.maxBytes), up.ms - latencyMs),
  };
}
