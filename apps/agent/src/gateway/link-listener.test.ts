import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo, Server, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POOL, poolHello } from '../link/pool-protocol.js';
import { createLinkListener } from './link-listener.js';

// The link listener over TLS (the plain one is exercised by gateway.test.ts through real agents): the hello and an
// HTTP request are told apart by their first bytes after the handshake, as on a plain connection.

let dir: string;
let tls: { cert: string; key: string };
let listener: Server;
const hellos: Array<{ socket: Socket; key: string }> = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gateway-link-listener-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=localhost', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  tls = { cert: readFileSync(join(dir, 'cert.pem'), 'utf8'), key: readFileSync(join(dir, 'key.pem'), 'utf8') };
  const http = createHttpServer((_req, res) => res.end('plain http\n'));
  http.on('upgrade', (_req, socket: Socket) => socket.end('HTTP/1.1 101 Switching Protocols\r\n\r\nupgraded'));
  listener = createLinkListener({ http, tls, onHello: (socket, key) => { hellos.push({ socket, key }); socket.write('pooled'); } });
  listener.listen(0, '127.0.0.1');
  await once(listener, 'listening');
});
afterAll(async () => {
  for (const { socket } of hellos) socket.destroy();
  await new Promise((resolve) => listener.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

async function secureConnect(): Promise<TLSSocket> {
  const socket = tlsConnect({ host: '127.0.0.1', port: (listener.address() as AddressInfo).port, ca: tls.cert, servername: 'localhost' });
  await once(socket, 'secureConnect');
  return socket;
}

async function readUntilEnd(socket: TLSSocket): Promise<string> {
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (t: string) => { text += t; });
  await once(socket, 'close');
  return text;
}

describe('the link listener over TLS', () => {
  it('hands a hello over with its key, unanswered, and the socket goes on carrying bytes', async () => {
    const socket = await secureConnect();
    socket.write(poolHello('pool-id.secret'));
    const [answer] = await once(socket, 'data') as [Buffer];
    expect(answer.toString()).toBe('pooled');
    expect(hellos.map((h) => h.key)).toEqual(['pool-id.secret']);
    socket.destroy();
  });

  it('passes an HTTP request and an upgrade to the HTTP server as they came', async () => {
    const request = await secureConnect();
    request.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(await readUntilEnd(request)).toMatch(/^HTTP\/1\.1 200[\s\S]*plain http\n$/);
    const upgrade = await secureConnect();
    upgrade.write(`GET ${POOL.path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: ${POOL.upgrade}\r\n\r\n`);
    expect(await readUntilEnd(upgrade)).toMatch(/^HTTP\/1\.1 101[\s\S]*upgraded$/);
  });
});
