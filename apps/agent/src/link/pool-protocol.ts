// Pooled link connections (docs/decisions/047-pooled-link-connections.md). Besides its HTTP/2 link, an agent keeps a
// few plain TCP (or TLS) connections open to the gateway, idle; the gateway gives each new customer connection one of
// them and, after a one-line header and a one-byte answer, relays raw bytes between two ordinary sockets: no HTTP/2
// stream, no Duplex wrapper on either side. The HTTP/2 link stays for what it is good at: proof, tickets, UDP
// datagrams, and customers who arrive while the pool is empty.
//
//   agent → gateway  GET POOL.path, `Upgrade: POOL.upgrade`, `Authorization: Bearer <pool key>`; answered 101 (or 401)
//                    The pool key is the gateway's random secret for the link the agent proved (it travels in
//                    POOL.keyHeader on the gateway's tickets request): a pooled connection is worth what its link is,
//                    and it dies with it.
//   gateway → agent  `<customer id> <port> <customer address>\n` when a customer takes the connection
//   agent → gateway  POOL.served ('1'), then the customer's bytes both ways; or POOL.notServed ('0') and the end
//
// A SOCKS5 UDP ASSOCIATE on a pooled connection names it `udp p<customer id>` on the tickets stream (an HTTP/2
// stream's is `udp <stream id>`), and its datagrams take an HTTP/2 stream as before.

export const POOL = {
  path: '/link/pool',
  upgrade: 'cellport-pool/1',
  /** On the gateway's GET of the tickets path: the key the agent's pooled connections present (the bearer). */
  keyHeader: 'cellport-pool-key',
  served: 0x31,
  notServed: 0x30,
  /** The longest header line: an id, a port, an IPv6 address with its zone, spaces. */
  maxHeaderBytes: 256,
} as const;

/** How many idle pooled connections an agent keeps ready; it opens the next one as soon as one is taken. */
export const POOL_SIZE = 16;
/** A customer who finds the pool empty waits this long for the next one, then rides an HTTP/2 stream: never refused. */
export const POOL_WAIT_MS = 100;
/** The agent's answer to a header must come within this; otherwise the connection is dropped and the customer retried. */
export const POOL_ANSWER_TIMEOUT_MS = 5_000;
/** After a pooled connection failed to open (or closed unused), the next attempt waits this long: no hot loop. */
export const POOL_RETRY_MS = 1_000;

/** The customer's prefix on a pooled connection. */
export function poolHeader(customerId: number, port: number, client: string): string {
  return `${customerId} ${port} ${client}\n`;
}

export interface PoolHeader { customerId: number; port: number; client: string }

/** The header parsed from the start of `buf`, and where the customer's bytes begin; null while incomplete; throws when wrong. */
export function parsePoolHeader(buf: Buffer): { header: PoolHeader; rest: Buffer } | null {
  const nl = buf.indexOf(0x0a);
  if (nl < 0) {
    if (buf.length > POOL.maxHeaderBytes) throw new Error('pool header too long');
    return null;
  }
  const [id, port, client = ''] = buf.subarray(0, nl).toString('latin1').split(' ');
  const header = { customerId: Number(id), port: Number(port), client };
  if (!Number.isInteger(header.customerId) || !Number.isInteger(header.port)) throw new Error('pool header malformed');
  return { header, rest: buf.subarray(nl + 1) };
}
