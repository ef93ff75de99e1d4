import { describe, expect, it } from 'vitest';
import { GATEWAY_ID, testTrust } from './gateway-test-support.js';
import { TicketError, verifyLinkTicket } from './link-ticket.js';
import { newLinkKey } from '../link/link-proof.js';
import { SignJWT } from 'jose';
import { generateKeyPairSync } from 'node:crypto';

const OTHER_GATEWAY = '00000000-0000-4000-8000-000000000000';

describe('link tickets', () => {
  const trust = testTrust();
  const linkKey = newLinkKey().publicKey;

  it('takes a ticket for this gateway', async () => {
    const ticket = await trust.sign({ gatewayId: GATEWAY_ID, hostId: 'h1', epoch: 3, ports: [], linkKey });
    expect(await verifyLinkTicket(ticket, trust.publicKey, GATEWAY_ID)).toMatchObject({ hostId: 'h1', epoch: 3, linkKey });
  });

  // Issue 28, item 11: a wrong GATEWAY_ID said only `unexpected "aud" claim value`.
  it('refuses a ticket for another gateway, naming the gateway it is for and this one\'s GATEWAY_ID', async () => {
    const ticket = await trust.sign({ gatewayId: OTHER_GATEWAY, hostId: 'h1', epoch: 1, ports: [], linkKey });
    const refusal = verifyLinkTicket(ticket, trust.publicKey, GATEWAY_ID);
    await expect(refusal).rejects.toBeInstanceOf(TicketError);
    await expect(refusal).rejects.toThrow(`ticket refused: it is for gateway ${OTHER_GATEWAY}, and this gateway's GATEWAY_ID is ${GATEWAY_ID}`);
  });

  // Issue 26, item 10: a ticket that binds no link key would be a bearer credential; the gateway takes none.
  it('refuses a genuine ticket that binds no link key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const bare = await new SignJWT({ epoch: 1, ports: [] }).setProtectedHeader({ alg: 'EdDSA' })
      .setSubject('h1').setAudience(GATEWAY_ID).setIssuedAt().setExpirationTime('1h').sign(privateKey);
    await expect(verifyLinkTicket(bare, publicKey, GATEWAY_ID)).rejects.toThrow('its claims are not a link ticket\'s');
  });
});
