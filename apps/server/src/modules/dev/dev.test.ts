import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { signedIn, type Signed } from '../../../test/console-helpers.js';

/** GET /api/v1/dev/outbox as seen from `remoteAddress`, optionally with a session cookie. */
const outboxFrom = (t: TestApp, remoteAddress: string, cookie?: string) =>
  t.app.inject({ method: 'GET', url: '/api/v1/dev/outbox', remoteAddress, headers: cookie ? { cookie } : {} });

describe('the development outbox (password-reset links inside) is not for the network', () => {
  let t: TestApp;
  let operator: Signed;
  let customer: Signed;
  beforeAll(async () => {
    t = await buildTestApp();
    operator = await signedIn(t, 'admin');
    customer = await signedIn(t, 'customer');
    await t.ctx.db.insertInto('mail_outbox').values({ to_email: 'victim@example.com', subject: 'Reset your password', text: 'http://localhost:3000/reset/SECRET', html: '' }).execute();
  });
  afterAll(async () => { await t.close(); });

  it('serves local clients (the person at this machine, the browser tests)', async () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const res = await outboxFrom(t, address);
      expect(res.statusCode, address).toBe(200);
      expect(res.body).toContain('SECRET');
    }
  });

  it('refuses anyone else on the network, signed out or signed in as a customer', async () => {
    for (const address of ['192.168.1.20', '10.0.0.7', '::ffff:192.168.1.20', 'fe80::1', '8.8.8.8']) {
      for (const cookie of [undefined, customer.cookie]) {
        const res = await outboxFrom(t, address, cookie);
        expect(res.statusCode, `${address} ${cookie ? 'customer' : 'visitor'}`).toBe(403);
        expect(res.body).not.toContain('SECRET');
        expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
      }
    }
  });

  // Issue 26, item 4: the demo agent's simulated modems send customers' traffic from 127.0.x.y.
  it('refuses the rest of 127.0.0.0/8, where the agent\'s proxy traffic comes from', async () => {
    for (const address of ['127.0.1.1', '127.0.5.9', '127.0.0.2', '127.255.255.254', '::ffff:127.0.3.4', '::ffff:7f00:2']) {
      for (const cookie of [undefined, customer.cookie]) {
        const res = await outboxFrom(t, address, cookie);
        expect(res.statusCode, `${address} ${cookie ? 'customer' : 'visitor'}`).toBe(403);
        expect(res.body).not.toContain('SECRET');
      }
    }
  });

  it('serves a signed-in operator from anywhere', async () => {
    const res = await outboxFrom(t, '192.168.1.20', operator.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('SECRET');
  });
});

describe('DEV_OUTBOX_PUBLIC=true (unsafe) opens it to the network', () => {
  let t: TestApp;
  beforeAll(async () => { t = await buildTestApp({ DEV_OUTBOX_PUBLIC: 'true' }); });
  afterAll(async () => { await t.close(); });

  it('serves anyone', async () => {
    expect((await outboxFrom(t, '192.168.1.20')).statusCode).toBe(200);
  });
});
