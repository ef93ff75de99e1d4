import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IpnVerificationError, verifyIpn } from './ipn-verifier.js';
import { PayPalGateway } from './paypal-gateway.js';
import { resolvePayPalSettings } from './paypal-settings.js';

/** A stand-in for ipnpb.paypal.com on 127.0.0.1: answers VERIFIED only for `cmd=_notify-validate&` + the exact message. */
let expectedMessage: Buffer;
let answer: { status: number; text: string } | null;
const seen: { method: string; path: string; body: Buffer; headers: IncomingHttpHeaders }[] = [];
let verifyUrl: string;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    seen.push({ method: req.method ?? '', path: req.url ?? '', body, headers: req.headers });
    if (answer) {
      res.writeHead(answer.status).end(answer.text);
      return;
    }
    const exact = body.equals(Buffer.concat([Buffer.from('cmd=_notify-validate&'), expectedMessage]));
    res.writeHead(200, { 'content-type': 'text/plain' }).end(exact ? 'VERIFIED' : 'INVALID');
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  verifyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cgi-bin/webscr`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
  answer = null;
});

// Field order and encoding as PayPal sends them (not alphabetical, %40 and + kept as they came).
const raw = 'mc_gross=19.95&protection_eligibility=Eligible&payer_id=LPLWNMTBWMFAY&payment_date=20%3A12%3A59+Jan+13%2C+2009+PST'
  + '&payment_status=Completed&charset=windows-1252&first_name=Test&mc_currency=USD&custom=paypal_abc123'
  + '&receiver_email=sb-cellport-merchant%40business.example.com&txn_id=61E67681CH3238416&item_name=4G+US+Basic+-+1x+port';

describe('verifyIpn against a fake PayPal validation endpoint', () => {
  it('posts cmd=_notify-validate& followed by the raw body byte for byte and returns VERIFIED', async () => {
    expectedMessage = Buffer.from(raw);
    expect(await verifyIpn(Buffer.from(raw), { verifyUrl })).toBe('VERIFIED');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.path).toBe('/cgi-bin/webscr');
    expect(seen[0]!.body.toString()).toBe(`cmd=_notify-validate&${raw}`);
    expect(seen[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(seen[0]!.headers['user-agent']).toBeTruthy();
  });

  it('sends a string body unchanged as well', async () => {
    expectedMessage = Buffer.from(raw);
    expect(await verifyIpn(raw, { verifyUrl })).toBe('VERIFIED');
  });

  it('returns INVALID when PayPal does not recognise the message (e.g. a forged or altered one)', async () => {
    expectedMessage = Buffer.from(raw);
    expect(await verifyIpn(raw.replace('19.95', '1995.00'), { verifyUrl })).toBe('INVALID');
  });

  it('throws (so PayPal resends) on an HTTP error, an unexpected answer or an unreachable endpoint', async () => {
    answer = { status: 503, text: 'busy' };
    await expect(verifyIpn(raw, { verifyUrl })).rejects.toBeInstanceOf(IpnVerificationError);
    answer = { status: 200, text: '<html>VERIFIED</html>' };
    await expect(verifyIpn(raw, { verifyUrl })).rejects.toBeInstanceOf(IpnVerificationError);
    await expect(verifyIpn(raw, { verifyUrl: 'http://127.0.0.1:1/cgi-bin/webscr', timeoutMs: 2000 })).rejects.toBeInstanceOf(IpnVerificationError);
  });
});

describe('the IPN listener path: verify, parse, check', () => {
  it('credits a verified message for our receiver and the recorded amount, and nothing when PayPal says INVALID', async () => {
    const gateway = new PayPalGateway(resolvePayPalSettings({ PAYPAL_IPN_URL: verifyUrl }, false).settings);
    expectedMessage = Buffer.from(raw);
    const fields = gateway.parse(raw)!;
    expect(gateway.check(await gateway.verify(raw), fields, 1995)).toMatchObject({ action: 'credit', txnId: '61E67681CH3238416', amountCents: 1995, custom: 'paypal_abc123' });

    expectedMessage = Buffer.from('something else');
    expect(gateway.check(await gateway.verify(raw), fields, 1995)).toMatchObject({ action: 'ignore', reason: expect.stringMatching(/INVALID/) });
  });
});
