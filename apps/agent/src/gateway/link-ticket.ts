import { createPublicKey, type KeyObject } from 'node:crypto';
import { errors, jwtVerify } from 'jose';
import { linkTicketClaimsSchema, type LinkTicketClaims } from '@cellport/shared/schemas/gateway-protocol';

// Checking the tickets agents present (docs/decisions/031-gateway.md): an EdDSA JWT from the server, for this gateway
// (aud), naming the host (sub), with an expiry, bound to the agent's link key (cnf). jose does the JOSE parts; the
// claims are the shared contract.

export interface LinkTicket extends LinkTicketClaims {
  hostId: string;
  expiresAt: number;
  /** When the server issued it (ms; its `iat`): of two hosts' tickets naming one port, the later wins (decision 045). */
  issuedAt: number;
  /** The agent's link key the ticket binds: the link is taken only from who proves it holds its private half. */
  linkKey: string;
}

/** The server's trust key from its 43-character form (the JWK `x` of an Ed25519 key). */
export function trustKeyFrom(x: string): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' });
}

export class TicketError extends Error {}

export async function verifyLinkTicket(ticket: string, key: KeyObject, gatewayId: string): Promise<LinkTicket> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(ticket, key, { algorithms: ['EdDSA'], audience: gatewayId, requiredClaims: ['sub', 'exp'] }));
  } catch (err) {
    // jose says `unexpected "aud" claim value`; the operator needs to know which gateway the ticket was made for.
    if (err instanceof errors.JWTClaimValidationFailed && err.claim === 'aud') {
      throw new TicketError(`ticket refused: it is for gateway ${String(err.payload.aud)}, and this gateway's GATEWAY_ID is ${gatewayId} `
        + '(the console shows each gateway\'s id under Inventory → Gateways; the host\'s ticket names the gateway it was assigned)');
    }
    throw new TicketError(`ticket refused: ${(err as Error).message}`);
  }
  const claims = linkTicketClaimsSchema.safeParse(payload);
  if (!claims.success) throw new TicketError('ticket refused: its claims are not a link ticket\'s');
  return { ...claims.data, hostId: String(payload.sub), expiresAt: Number(payload.exp) * 1000, issuedAt: Number(payload.iat ?? 0) * 1000, linkKey: claims.data.cnf.jwk.x };
}
