import type { Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { readPoolHello } from '../link/pool-protocol.js';
import { withReusedReads } from './accepted-reads.js';

// The gateway's link listener (decision 047): one port for two kinds of connection from agents, told apart by their
// first bytes. A pooled connection that opens with the hello (link/pool-protocol.ts) is handed over with its key and
// never meets an HTTP parser: an HTTP upgrade per pooled connection cost both sides a request and a response parsed,
// and the gateway a write, for every customer (the pool refills one connection per customer). Anything else (the
// link's upgrade, an older agent's pooled upgrade, a stray request) goes to the HTTP server as it came.

/** How long a new connection may take to show what it is (an HTTP request then has the HTTP server's own timeouts). */
const FIRST_BYTES_TIMEOUT_MS = 10_000;

export interface LinkListenerOptions {
  http: HttpServer;
  tls?: { cert: string; key: string };
  /** A connection that opened with the hello, paused: `key` is what it presented, unchecked. */
  onHello(socket: Socket, key: string): void;
}

export function createLinkListener(options: LinkListenerOptions): Server {
  const sort = (socket: Socket) => sortByFirstBytes(socket, options);
  if (options.tls) return createTlsServer({ ...options.tls, ALPNProtocols: ['http/1.1'] }, sort);
  return createNetServer({ noDelay: true }, sort);
}

function sortByFirstBytes(socket: Socket, options: LinkListenerOptions): void {
  socket.on('error', () => {});
  socket.setTimeout(FIRST_BYTES_TIMEOUT_MS, () => socket.destroy());
  let pending: Buffer | null = null;
  const onData = (chunk: Buffer) => {
    pending = pending ? Buffer.concat([pending, chunk]) : chunk;
    let verdict;
    try {
      verdict = readPoolHello(pending);
    } catch {
      return void socket.destroy();
    }
    if (verdict === 'more') return;
    socket.removeListener('data', onData);
    socket.setTimeout(0);
    // What comes next is held until the new owner reads: a pooled connection's owner resumes it when it takes it.
    socket.pause();
    if (verdict === 'http') {
      socket.unshift(pending);
      options.http.emit('connection', socket);
      // The HTTP server reads what arrives next from the socket's handle; the bytes put back come as 'data'.
      socket.resume();
      return;
    }
    // The agent sends nothing after its hello until a customer's header was answered: more is not this protocol.
    if (verdict.rest.length > 0) return void socket.destroy();
    // From here on it carries only relayed bytes (and the agent's one-byte answers): reused read buffers.
    options.onHello(withReusedReads(socket), verdict.key);
  };
  socket.on('data', onData);
}
