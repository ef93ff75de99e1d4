import * as z from 'zod/mini';

// The gateway link (issue 18, docs/decisions/031-gateway.md). A host behind NAT is reached through a gateway on a
// public machine. The host's agent dials the gateway's link URL with HTTP/1.1 `Upgrade: cellport-link/1` and a ticket
// the server signed (`Authorization: Bearer <ticket>`); after `101 Switching Protocols` the same TCP connection carries
// HTTP/2 with the roles reversed: the gateway is the HTTP/2 client and opens one CONNECT stream per customer
// connection, the agent the server that answers it. HTTP/2 gives each stream its own flow-control window, so one slow
// download never stalls the others on the link.
//
//   gateway → agent  CONNECT stream, headers cellport-port (the port the customer reached) and cellport-client (the
//                    customer's address, for whitelists); the agent answers 200 and the stream is the customer's bytes
//   gateway → agent  GET GATEWAY_PROTOCOL.ticketsPath, answered with newline-separated lines: tickets, as the agent
//                    gets new ones from the server (ports added or removed, the hourly renewal), and `udp <stream id>`
//                    when a customer's SOCKS5 UDP ASSOCIATE arrived on that stream
//   gateway → agent  CONNECT stream with cellport-udp-for (that stream id) and the address and port of the UDP socket
//                    the gateway bound for the customer: the association's datagrams, each framed by its 2-byte length
//
//   gateway → agent  GET GATEWAY_PROTOCOL.proofPath with a fresh random challenge (cellport-challenge), first thing
//                    on a new link; the agent answers 200 with cellport-proof, its link key's Ed25519 signature of
//                    linkProofMessage(challenge). The gateway takes the link (and the host's ports) only after it checked
//                    the signature against the key the ticket binds (cnf), so a ticket alone — replayed, leaked — is
//                    worth nothing without the agent's private key.
//
// A ticket is an EdDSA JWT signed with the server's gateway trust key (the console shows its public half, which the
// gateway is configured with). It names the gateway (aud), the host (sub), the fencing epoch, the host's ports and the
// public half of the agent's link key (cnf, RFC 7800), which the agent sent with its ticket request.

export const GATEWAY_PROTOCOL = {
  /** The upgrade path on the gateway's link listener. */
  linkPath: '/link',
  upgrade: 'cellport-link/1',
  ticketsPath: '/tickets',
  proofPath: '/proof',
  challengeHeader: 'cellport-challenge',
  proofHeader: 'cellport-proof',
  /** How long the gateway waits for the agent's proof before it closes a new link. */
  proofTimeoutMs: 10_000,
  portHeader: 'cellport-port',
  clientHeader: 'cellport-client',
  udpForHeader: 'cellport-udp-for',
  udpAddressHeader: 'cellport-udp-address',
  udpPortHeader: 'cellport-udp-port',
  /** How long the agent waits for the gateway's UDP stream before it refuses the association. */
  udpOpenTimeoutMs: 5_000,
  /**
   * A ticket is good for this long; the agent asks for a new one at half of it. A day, so that a host behind a gateway
   * keeps serving through a long outage of the server, as a direct host does on its last state (decision 031).
   */
  ticketSeconds: 24 * 3600,
  /** The agent's reconnect backoff: from 0.5 s doubling to 10 s, with jitter (service back within 10 s of a cut). */
  reconnectMinMs: 500,
  reconnectMaxMs: 10_000,
} as const;

export const PROXY_KINDS = ['http', 'socks'] as const;
export type ProxyKind = (typeof PROXY_KINDS)[number];

const tcpPort = z.number().check(z.int(), z.minimum(1), z.maximum(65535));

/** An Ed25519 public key as 43 base64url characters (the JWK `x`): the agent's link key. */
export const linkKeySchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{43}$/, 'a link key is 43 base64url characters'));

/** What the agent's link key signs to prove it holds the key a ticket binds: the gateway's challenge, in context. */
export const linkProofMessage = (challenge: string): string => `cellport-link-proof/1 ${challenge}`;

/** The claims of a link ticket besides aud (the gateway's id), sub (the host's id), iat and exp. */
export const linkTicketClaimsSchema = z.object({
  /** Each agent connection of the host to the server gets a higher one; a gateway keeps only the highest. */
  epoch: z.number().check(z.int(), z.minimum(1)),
  ports: z.array(z.object({ port: tcpPort, kind: z.enum(PROXY_KINDS) })).check(z.maxLength(4000)),
  /** The agent's link key (RFC 7800 confirmation): only who holds its private half can use the ticket. */
  cnf: z.object({ jwk: z.object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: linkKeySchema }) }),
});
export type LinkTicketClaims = z.infer<typeof linkTicketClaimsSchema>;

/** The gateway a host is behind, in its desired state (absent: customers reach the host directly). */
export const desiredGatewaySchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(64)),
  /** What the agent dials (http:// or https://). */
  linkUrl: z.string().check(z.maxLength(300)),
});
export type DesiredGateway = z.infer<typeof desiredGatewaySchema>;

export const GATEWAY_LINK_STATES = ['up', 'connecting', 'down', 'refused'] as const;
export type GatewayLinkStateName = (typeof GATEWAY_LINK_STATES)[number];
/** What the agent reports of its link in each heartbeat. */
export const gatewayLinkReportSchema = z.object({
  state: z.enum(GATEWAY_LINK_STATES),
  problem: z.optional(z.string().check(z.maxLength(300))),
});
export type GatewayLinkReport = z.infer<typeof gatewayLinkReportSchema>;

/** The agent's 'gateway-ticket' request: the public half of the key its link proves itself with. */
export const gatewayTicketRequestSchema = z.object({ linkKey: linkKeySchema });
export type GatewayTicketRequest = z.infer<typeof gatewayTicketRequestSchema>;

/** The server's answer to the agent's 'gateway-ticket' request. */
export const gatewayTicketReplySchema = z.union([
  z.object({ ticket: z.string().check(z.maxLength(200_000)) }),
  z.object({ error: z.string() }),
]);
export type GatewayTicketReply = z.infer<typeof gatewayTicketReplySchema>;
