import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedStripeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The form-encoded body as Stripe's SDK sent it (keys like `metadata[order]`, `expand[0]`). */
  form: URLSearchParams;
  headers: IncomingHttpHeaders;
}

export interface StripeReply { status?: number; body: unknown }
/** May answer later (a promise): e.g. after delivering the webhook Stripe would send before its answer arrives. */
export type StripeRoute = (request: RecordedStripeRequest) => StripeReply | undefined | Promise<StripeReply | undefined>;

export interface FakeStripeApi {
  /** http://127.0.0.1:<port>, for the adapter's apiBase. */
  url: string;
  requests: RecordedStripeRequest[];
  close(): Promise<void>;
}

/**
 * A tiny stand-in for api.stripe.com on 127.0.0.1: the official SDK really speaks HTTP to it, and every request is
 * recorded so tests can assert what the SDK sent. `route` answers a request or returns undefined for a 404.
 */
export async function startFakeStripeApi(route: StripeRoute): Promise<FakeStripeApi> {
  const requests: RecordedStripeRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const recorded: RecordedStripeRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
        headers: req.headers,
      };
      requests.push(recorded);
      const reply = await route(recorded) ?? {
        status: 404,
        body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `Unrecognized request URL (${recorded.method}: ${recorded.path})` } },
      };
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', 'request-id': `req_fake_${requests.length}` });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
