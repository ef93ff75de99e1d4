import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a fake upstream answers: a status and a body (objects are sent as JSON, strings as they are). */
export interface FakeReply { status?: number; body: unknown }
export type FakeHandler = (url: URL, request: IncomingMessage) => FakeReply | Promise<FakeReply>;

export interface FakeHttpServer {
  url: string;
  /** Every request seen, in order (path + query, and headers), so tests can assert what was asked. */
  requests: { url: URL; headers: IncomingMessage['headers'] }[];
  setHandler(handler: FakeHandler): void;
  close(): Promise<void>;
}

/**
 * A small real HTTP server on 127.0.0.1 and a random port, standing in for Esplora, TronGrid or a ticker, so the
 * adapters are exercised through their real HTTP code rather than by stubbing our own functions.
 */
export async function startFakeHttpServer(initial: FakeHandler): Promise<FakeHttpServer> {
  let handler = initial;
  const requests: FakeHttpServer['requests'] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ url, headers: req.headers });
    Promise.resolve()
      .then(() => handler(url, req))
      .then((reply) => {
        const raw = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
        res.writeHead(reply.status ?? 200, { 'content-type': typeof reply.body === 'string' ? 'text/plain' : 'application/json' });
        res.end(raw);
      })
      .catch((err: Error) => {
        res.writeHead(500);
        res.end(err.message);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setHandler(next) {
      handler = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
