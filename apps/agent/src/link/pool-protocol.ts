// Pooled link connections (docs/decisions/047-pooled-link-connections.md). Besides its HTTP/2 link, an agent keeps a
// few plain TCP (or TLS) connections open to the gateway, idle; the gateway gives each new customer connection one of
// them and, after a one-line header and a one-byte answer, relays raw bytes between two ordinary sockets: no HTTP/2
// stream, no Duplex wrapper on either side. The HTTP/2 link stays for what it is good at: proof, tickets, UDP
// datagrams, and customers who arrive while the pool is empty.
//
//   agent → gateway  `POOL.hello<pool key>\n` as the connection's first bytes, when the gateway offers it (POOL.helloHeader
//                    on its tickets request): no answer, the connection is pooled (or closed, for a key no link holds).
//                    A gateway that does not offer it (before 2026-12-07 04:00) takes only the HTTP/1.1 form:
//                    GET POOL.path, `Upgrade: POOL.upgrade`, `Authorization: Bearer <pool key>`; answered 101 (or 401).
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
  /**
   * On the same request, `1` when the gateway takes the hello on the link listener: a pooled connection then costs
   * a connect and one write, not an HTTP request and response parsed on both sides (issue 31 item 2, decision 047).
   */
  helloHeader: 'cellport-pool-hello',
  /** A pooled connection's first bytes on a gateway that offers the hello; no HTTP request starts so. */
  hello: 'CELLPORT-POOL/1 ',
  /** The longest hello: the prefix, a pool id and secret in base64url (12 + 1 + 43 characters), the newline; slack. */
  maxHelloBytes: 128,
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

/** A pooled connection's hello, for a gateway that offers it. */
export function poolHello(key: string): string {
  return `${POOL.hello}${key}\n`;
}

const HELLO = Buffer.from(POOL.hello, 'latin1');

/**
 * What a link connection's first bytes are: `more` while they could still be either (shorter than the hello's prefix,
 * or the hello without its newline), `http` when they are not a hello, or the hello's key and the bytes after it.
 * Throws for a hello too long to be one.
 */
export function readPoolHello(buf: Buffer): 'more' | 'http' | { key: string; rest: Buffer } {
  const prefix = Math.min(buf.length, HELLO.length);
  if (buf.compare(HELLO, 0, prefix, 0, prefix) !== 0) return 'http';
  const nl = buf.indexOf(0x0a, HELLO.length);
  if (nl < 0) {
    if (buf.length > POOL.maxHelloBytes) throw new Error('pool hello too long');
    return 'more';
  }
  return { key: buf.subarray(HELLO.length, nl).toString('latin1'), rest: buf.subarray(nl + 1) };
}
