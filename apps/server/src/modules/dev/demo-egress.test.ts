import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../../../agent/src/config.js';
import { targetPolicyOf } from '../../../../agent/src/proxy/target-policy-settings.js';
import { access, startModem, type TestModem } from '../../../../agent/src/proxy/test-support.js';
import { loadConfig } from '../../config.js';
import { embeddedAgentEnv } from '../../embedded-agent.js';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { getThroughProxy } from '../../../test/proxy-get.js';

// Issue 26, item 4: a customer of the demo's embedded agent read the operator's password-reset link from the
// development outbox (proxy egress comes from 127.0.x.y, which the outbox took for this machine) and reached
// PostgreSQL's port. Here a real proxy port, with the target policy the embedded agent's own settings give it and a
// simulated modem's loopback egress, goes to this server listening on 127.0.0.1 and to the PostgreSQL port.

const EGRESS = '127.0.3.7';

describe('a customer of the demo agent against this machine', () => {
  let t: TestApp;
  let modem: TestModem;
  let base = '';
  const port = access('p1');
  const through = (url: string) => getThroughProxy({ host: '127.0.0.1', port: modem.http, login: port.login, password: port.password }, url);

  beforeAll(async () => {
    t = await buildTestApp({ NODE_ENV: 'development' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    await t.ctx.db.insertInto('mail_outbox').values({ to_email: 'operator@example.com', subject: 'Reset your password', text: `${base}/reset/OPERATOR-SECRET`, html: '' }).execute();
    const env = embeddedAgentEnv(t.config, (t.app.server.address() as AddressInfo).port, ['chk_abcdefghijklmnopqrstuvwxyz012345']);
    const agentConfig = loadAgentConfig(env);
    expect(agentConfig.AGENT_ALLOW_LOOPBACK, 'the newcomer\'s localhost demo reaches local sites').toBe(true);
    modem = await startModem({ egress: EGRESS, listenHost: agentConfig.AGENT_LISTEN_HOST, policy: targetPolicyOf(agentConfig, null), ports: [port] });
  });
  afterAll(async () => {
    await modem?.close();
    await t?.close();
  });

  it('reaches the dashboard\'s own /api/v1/ip (the demo\'s Try it), seen from its modem\'s address', async () => {
    expect(await through(`${base}/api/v1/ip`)).toEqual({ status: 200, body: EGRESS });
  });

  it('is refused the development outbox, which the person at this machine still reads', async () => {
    const res = await through(`${base}/api/v1/dev/outbox`);
    expect(res.status).toBe(403);
    expect(res.body).not.toContain('OPERATOR-SECRET');
    const local = await fetch(`${base}/api/v1/dev/outbox`);
    expect(local.status).toBe(200);
    expect(await local.text()).toContain('OPERATOR-SECRET');
  });

  it('is refused PostgreSQL\'s, Redis\'s and SMTP\'s ports on loopback', async () => {
    for (const target of ['http://127.0.0.1:5432/', 'http://localhost:6379/', 'http://127.0.0.1:25/']) {
      expect(await through(target), target).toEqual({ status: 403, body: 'This target is not allowed through this proxy.' });
    }
  });
});

describe('a demo or staging box that others reach (PUBLIC_URL not on loopback)', () => {
  it('refuses every loopback target, and this machine\'s service ports on its own address', async () => {
    const config = loadConfig({ NODE_ENV: 'development', PUBLIC_URL: 'https://demo.example.com', DATA_DIR: '/tmp/cellport-staging' });
    const agentConfig = loadAgentConfig(embeddedAgentEnv(config, 3000, ['chk_abcdefghijklmnopqrstuvwxyz012345']));
    expect(agentConfig.AGENT_LISTEN_HOST).toBe('0.0.0.0');
    const policy = targetPolicyOf(agentConfig, null);
    for (const host of ['127.0.0.1', 'localhost', '127.0.3.7']) expect(await policy.resolve(host, 4, 3000), host).toEqual({ ok: false, reason: 'refused' });
    // The simulated modems send from 127.0.x.y, which PostgreSQL takes for local on the public address as well.
    const own = Object.values(networkInterfaces()).flat().find((a) => a?.family === 'IPv4' && !a.internal)?.address ?? '203.0.113.1';
    const lab = targetPolicyOf({ ...agentConfig, AGENT_ALLOW_PRIVATE: true }, null);
    expect(await lab.resolve('8.8.8.8', 4, 5432)).toEqual({ ok: false, reason: 'refused' });
    expect(await lab.resolve(own, 4, 5432)).toEqual({ ok: false, reason: 'refused' });
    expect(await lab.resolve('8.8.8.8', 4, 443)).toEqual({ ok: true, address: '8.8.8.8' });
  });
});
