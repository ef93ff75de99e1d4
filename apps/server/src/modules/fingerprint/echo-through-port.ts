import { connect, type Socket } from 'node:net';
import { fingerprintEchoResultSchema, type FingerprintEchoResult } from '@cellport/shared/fingerprint-presets';

/** A port as a proxy client reaches it: the customer's own address, HTTP port and credentials. */
export interface PortEndpoint { host: string; httpPort: number; login: string; password: string }

/** Why the check did not get the echo's answer, in an operator's words (the customer reads a translated code). */
export class EchoUnreachable extends Error {}

const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Asks the fingerprint echo what it saw, through the port (issue 30, item 5): a CONNECT tunnel opened on the port's
 * HTTP proxy with the port's own login, so the echo's connection leaves from the modem like a customer's would, then
 * a plain GET on the tunnel; the echo answers JSON about the SYN of that very connection. Everything, connecting
 * included, ends within `timeoutMs`.
 */
export function echoThroughPort(port: PortEndpoint, echoUrl: string, timeoutMs: number): Promise<FingerprintEchoResult> {
  const url = new URL(echoUrl);
  const target = `${url.hostname.replace(/^\[|\]$/g, '')}:${url.port || '80'}`;
  const authority = url.host;
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ host: port.host, port: port.httpPort });
    let phase: 'tunnel' | 'answer' = 'tunnel';
    let buffer = Buffer.alloc(0);
    let settled = false;
    const finish = (err: Error | null, value?: FingerprintEchoResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err); else resolve(value!);
    };
    const timer = setTimeout(() => finish(new EchoUnreachable(`no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('error', (err) => finish(new EchoUnreachable(`connection failed: ${err.message}`)));
    socket.on('connect', () => {
      const auth = Buffer.from(`${port.login}:${port.password}`).toString('base64');
      socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length > MAX_ANSWER_BYTES) return finish(new EchoUnreachable('the answer is too large'));
      if (phase === 'tunnel') {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const status = Number(buffer.subarray(9, 12).toString('latin1'));
        if (status !== 200) return finish(new EchoUnreachable(`the port refused the tunnel (HTTP ${status || '?'})`));
        buffer = buffer.subarray(end + 4);
        phase = 'answer';
        socket.write(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${authority}\r\nAccept: application/json\r\nConnection: close\r\n\r\n`);
      }
    });
    socket.on('end', () => {
      if (phase === 'tunnel') return finish(new EchoUnreachable('the port closed the connection before the tunnel opened'));
      try {
        finish(null, parseEchoAnswer(buffer));
      } catch (err) {
        finish(err as Error);
      }
    });
  });
}

/** The echo's HTTP answer: a 200 whose body is the contract's JSON (Content-Length or until close). */
export function parseEchoAnswer(raw: Buffer): FingerprintEchoResult {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new EchoUnreachable('the echo\'s answer was cut off');
  const head = raw.subarray(0, end).toString('latin1');
  const status = Number(head.slice(9, 12));
  if (status !== 200) throw new EchoUnreachable(`the echo answered HTTP ${status || '?'}`);
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) throw new EchoUnreachable('the echo answered in chunks, which it should not');
  let body = raw.subarray(end + 4);
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) body = body.subarray(0, Number(length[1]));
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw new EchoUnreachable('the echo did not answer JSON');
  }
  const parsed = fingerprintEchoResultSchema.safeParse(json);
  if (!parsed.success) throw new EchoUnreachable(`the echo answered out of contract: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}
