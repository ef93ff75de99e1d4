import { createPublicKey, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { linkProofMessage } from '@cellport/shared/schemas/gateway-protocol';

// Proof of the link key (docs/decisions/031-gateway.md, issue 26 item 10). The agent holds an Ed25519 key of its own,
// sends its public half with each ticket request, and the server's ticket binds it (cnf). On a new link the gateway
// sends a fresh challenge and takes the link only when the answer is the challenge signed by that key: a ticket seen
// by someone else (a log, a plain-HTTP link, a stolen copy) does not open a link for them.

/** The agent's link key: made in memory for the life of its link, never written anywhere. */
export interface LinkKey {
  /** The public half as the ticket carries it (the JWK `x`, 43 base64url characters). */
  publicKey: string;
  /** The proof for a gateway's challenge. */
  prove(challenge: string): string;
}

export function newLinkKey(): LinkKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKey: publicKey.export({ format: 'jwk' }).x!,
    prove: (challenge) => sign(null, Buffer.from(linkProofMessage(challenge)), privateKey).toString('base64url'),
  };
}

/** A fresh challenge for a new link: 32 random bytes. */
export const linkChallenge = (): string => randomBytes(32).toString('base64url');

/** Whether `proof` is the challenge signed by the link key a ticket names. */
export function linkProofHolds(linkKey: string, challenge: string, proof: unknown): boolean {
  if (typeof proof !== 'string' || proof.length > 200) return false;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: linkKey }, format: 'jwk' });
  } catch {
    return false;
  }
  return verify(null, Buffer.from(linkProofMessage(challenge)), key, Buffer.from(proof, 'base64url'));
}
