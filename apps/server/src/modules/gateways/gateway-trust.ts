import { createHmac, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { GATEWAY_PROTOCOL, type LinkTicketClaims } from '@cellport/shared/schemas/gateway-protocol';

// The server's gateway trust key (docs/decisions/031-gateway.md): an Ed25519 key derived from the server secret, so
// every instance has the same one and nothing new is stored. Gateways are configured with its public half (43
// characters, shown in the console) and check the link tickets the server signs for agents. Replacing the server
// secret replaces the key: each gateway then needs the new public half.

/** PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface GatewayTrust {
  privateKey: KeyObject;
  /** The public key as the gateway's GATEWAY_TRUST_KEY (base64url of the 32 raw bytes, the JWK `x`). */
  publicKey: string;
}

export function gatewayTrust(secret: string): GatewayTrust {
  const seed = createHmac('sha256', secret).update('cellport gateway trust key v1').digest();
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  return { privateKey, publicKey: jwk.x! };
}

/**
 * A link ticket for a host's agent to present to its gateway, good for GATEWAY_PROTOCOL.ticketSeconds. It binds the
 * agent's link key (`linkKey`, the public half; the agent proves it holds the private half to the gateway), so the
 * ticket alone does not open a link.
 */
export function signLinkTicket(
  trust: GatewayTrust,
  input: { gatewayId: string; hostId: string; linkKey: string } & Omit<LinkTicketClaims, 'cnf'>,
): Promise<string> {
  const claims: LinkTicketClaims = {
    epoch: input.epoch, ports: input.ports, cnf: { jwk: { kty: 'OKP', crv: 'Ed25519', x: input.linkKey } },
  };
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'EdDSA' })
    .setSubject(input.hostId)
    .setAudience(input.gatewayId)
    .setIssuedAt()
    .setExpirationTime(`${GATEWAY_PROTOCOL.ticketSeconds}s`)
    .sign(trust.privateKey);
}
