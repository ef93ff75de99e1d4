import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers.js';
import { createCustomer, json, seedTestCatalog } from './fixtures.js';
import { registeredRoutes } from './registered-routes.js';
import { call, signedIn, type Signed } from './console-helpers.js';

interface WriteCall { method: string; route: string; url: () => string; body?: () => unknown; headers?: Record<string, string>; action: string; status?: number }

/** A 1×1 PNG, for the console's screenshot upload. */
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4a40000000049454e44ae426082', 'hex');

describe('admin audit log', () => {
  let t: TestApp;
  let admin: Signed;
  beforeEach(async () => { t = await buildTestApp(); admin = await signedIn(t); });
  afterEach(async () => { await t.close(); });

  it('records every admin write with who, what, when, before and after — one valid call per write endpoint', async () => {
    const cat = await seedTestCatalog(t);
    const customer = await createCustomer(t, 100);
    const other = await signedIn(t, 'customer');
    const carrier = await t.ctx.db.selectFrom('carriers').select(['id', 'name']).where('country_id', '=', cat.usId).executeTakeFirstOrThrow();
    await t.app.inject({ method: 'POST', url: '/api/v1/payment/balance/buy', ...json(customer.cookie, {
      tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
    }) });
    const payment = await t.ctx.db.selectFrom('payments').select('id').where('user_id', '=', customer.id).executeTakeFirstOrThrow();
    const port = await t.ctx.db.selectFrom('ports').select('id').where('user_id', '=', customer.id).executeTakeFirstOrThrow();
    const order = await t.ctx.db.insertInto('payment_orders').values({
      user_id: other.id, provider: 'card', kind: 'topup', details: JSON.stringify({
        tariff_id: null, country_id: null, carrier_id: null, region_id: null, isShared: null, rotationInterval: null, modemCount: null, basket: null, coupon: null,
      }), amount: 10_000_000n, provider_amount: 1000n, description: 'Top-up',
    }).returning('id').executeTakeFirstOrThrow();
    const ticket = (await t.app.inject({ method: 'POST', url: '/api/v1/support/tickets', ...json(customer.cookie, { subject: 'Audit', body: 'A question' }) })).json().ticket;
    // A card subscription (the sandbox card provider), for the console's cancel.
    const subscribe = (await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/create-subscription', ...json(customer.cookie, {
      tariff_id: cat.dedicatedMonth.id, country_id: cat.usId, isShared: false, rotationInterval: 0, modemCount: 1,
    }) })).json();
    await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/sandbox/confirm', ...json(customer.cookie, { clientSecret: subscribe.clientSecret, cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' }) });
    expect(subscribe).toMatchObject({ error: null });
    const subscription = await t.ctx.db.selectFrom('card_subscriptions').select('id').where('user_id', '=', customer.id).where('status', '=', 'active').executeTakeFirstOrThrow();
    const ids: Record<string, string> = {};
    const keep = (key: string, value: string) => { ids[key] = value; };

    const calls: WriteCall[] = [
      { method: 'POST', route: '/admins', url: () => '/api/v1/admin/admins', body: () => ({ email: 'second-admin@ops.example' }), action: 'admin.create' },
      { method: 'DELETE', route: '/admins/:id', url: () => `/api/v1/admin/admins/${ids.admin}`, action: 'admin.demote' },
      { method: 'POST', route: '/customers/:id/deactivate', url: () => `/api/v1/admin/customers/${other.id}/deactivate`, action: 'customer.deactivate' },
      { method: 'POST', route: '/customers/:id/reactivate', url: () => `/api/v1/admin/customers/${other.id}/reactivate`, action: 'customer.reactivate' },
      { method: 'POST', route: '/customers/:id/balance-adjustments', url: () => `/api/v1/admin/customers/${other.id}/balance-adjustments`, body: () => ({ coin: 'usdt', amount: '1000000', reason: 'welcome credit' }), action: 'customer.balance-adjust' },
      { method: 'POST', route: '/customers/:id/reset-2fa', url: () => `/api/v1/admin/customers/${other.id}/reset-2fa`, action: 'customer.reset-2fa' },
      { method: 'POST', route: '/customers/:id/resend-confirmation', url: () => `/api/v1/admin/customers/${other.id}/resend-confirmation`, action: 'customer.resend-confirmation' },
      { method: 'POST', route: '/ports/:id/suspend', url: () => `/api/v1/admin/ports/${port.id}/suspend`, body: () => ({ reason: 'abuse report' }), action: 'port.suspend' },
      { method: 'POST', route: '/ports/:id/resume', url: () => `/api/v1/admin/ports/${port.id}/resume`, action: 'port.resume' },
      { method: 'POST', route: '/hosts', url: () => '/api/v1/admin/hosts', body: () => ({ name: 'audit-host', address: '10.1.1.1' }), action: 'host.create' },
      { method: 'PATCH', route: '/hosts/:id', url: () => `/api/v1/admin/hosts/${ids.host}`, body: () => ({ address: '10.1.1.2' }), action: 'host.update' },
      { method: 'POST', route: '/hosts/:id/key', url: () => `/api/v1/admin/hosts/${ids.host}/key`, action: 'host.key-issue' },
      { method: 'POST', route: '/hosts/:id/modems', url: () => `/api/v1/admin/hosts/${ids.host}/modems`, body: () => ({ imei: '869999999999993', countryId: cat.usId, carrierId: carrier.id, isShared: false }), action: 'modem.adopt' },
      { method: 'POST', route: '/modems', url: () => '/api/v1/admin/modems', body: () => ({ imei: '869999999999991', hostId: ids.host, httpPort: 25001, socksPort: 35001, extIp: '192.0.2.1', countryId: cat.usId, carrierId: carrier.id, isShared: false }), action: 'modem.create' },
      { method: 'PATCH', route: '/modems/:id', url: () => `/api/v1/admin/modems/${ids.modem}`, body: () => ({ extIp: '192.0.2.2' }), action: 'modem.update' },
      { method: 'POST', route: '/modems/:id/return-to-service', url: () => `/api/v1/admin/modems/${ids.modem}/return-to-service`, action: 'modem.return_to_service' },
      { method: 'POST', route: '/modems/:id/retire', url: () => `/api/v1/admin/modems/${ids.modem}/retire`, action: 'modem.retire' },
      { method: 'DELETE', route: '/modems/:id', url: () => `/api/v1/admin/modems/${ids.modem}`, action: 'modem.delete' },
      { method: 'POST', route: '/modems/import', url: () => '/api/v1/admin/modems/import', headers: { 'content-type': 'text/csv' }, body: () => `IMEI,host,http_port,socks_port,ext_ip,country,carrier,region,isShared,capacity\n869999999999992,audit-host,25002,35002,192.0.2.3,US,${carrier.name},,false,1`, action: 'modem.import' },
      { method: 'DELETE', route: '/hosts/:id', url: () => `/api/v1/admin/hosts/${ids.emptyHost}`, action: 'host.delete' },
      { method: 'POST', route: '/gateways', url: () => '/api/v1/admin/gateways', body: () => ({ name: 'audit-gw', publicHost: 'gw.example.net', linkUrl: 'http://gw.example.net:7400' }), action: 'gateway.create' },
      { method: 'PATCH', route: '/gateways/:id', url: () => `/api/v1/admin/gateways/${ids.gateway}`, body: () => ({ publicHost: '203.0.113.20' }), action: 'gateway.update' },
      { method: 'DELETE', route: '/gateways/:id', url: () => `/api/v1/admin/gateways/${ids.gateway}`, action: 'gateway.delete' },
      { method: 'POST', route: '/countries', url: () => '/api/v1/admin/countries', body: () => ({ code: 'NL', names: { en: 'Netherlands', ru: 'Нидерланды', cn: '荷兰' } }), action: 'country.create' },
      { method: 'PATCH', route: '/countries/:id', url: () => `/api/v1/admin/countries/${ids.country}`, body: () => ({ sort: 5 }), action: 'country.update' },
      { method: 'POST', route: '/carriers', url: () => '/api/v1/admin/carriers', body: () => ({ countryId: ids.country, name: 'KPN' }), action: 'carrier.create' },
      { method: 'PATCH', route: '/carriers/:id', url: () => `/api/v1/admin/carriers/${ids.carrier}`, body: () => ({ name: 'KPN Mobile' }), action: 'carrier.update' },
      { method: 'POST', route: '/regions', url: () => '/api/v1/admin/regions', body: () => ({ countryId: ids.country, names: { en: 'Amsterdam' } }), action: 'region.create' },
      { method: 'PATCH', route: '/regions/:id', url: () => `/api/v1/admin/regions/${ids.region}`, body: () => ({ names: { en: 'Noord-Holland', ru: 'Северная Голландия', cn: '北荷兰' } }), action: 'region.update' },
      { method: 'POST', route: '/tariffs', url: () => '/api/v1/admin/tariffs', body: () => ({ names: { en: 'NL', ru: 'НЛ', cn: '荷兰' }, price: '1000000', period: 'day', countryId: ids.country, isShared: false }), action: 'tariff.create' },
      { method: 'PATCH', route: '/tariffs/:id', url: () => `/api/v1/admin/tariffs/${ids.tariff}`, body: () => ({ price: '2000000' }), action: 'tariff.update' },
      { method: 'DELETE', route: '/tariffs/:id', url: () => `/api/v1/admin/tariffs/${ids.tariff}`, action: 'tariff.delete' },
      { method: 'DELETE', route: '/regions/:id', url: () => `/api/v1/admin/regions/${ids.region}`, action: 'region.delete' },
      { method: 'DELETE', route: '/carriers/:id', url: () => `/api/v1/admin/carriers/${ids.carrier}`, action: 'carrier.delete' },
      { method: 'DELETE', route: '/countries/:id', url: () => `/api/v1/admin/countries/${ids.emptyCountry}`, action: 'country.delete' },
      { method: 'POST', route: '/rotation-intervals', url: () => '/api/v1/admin/rotation-intervals', body: () => ({ minutes: 3 }), action: 'rotation-interval.create' },
      { method: 'PATCH', route: '/rotation-intervals/:minutes', url: () => '/api/v1/admin/rotation-intervals/3', body: () => ({ active: false }), action: 'rotation-interval.update' },
      { method: 'DELETE', route: '/rotation-intervals/:minutes', url: () => '/api/v1/admin/rotation-intervals/3', action: 'rotation-interval.delete' },
      { method: 'POST', route: '/coupons', url: () => '/api/v1/admin/coupons', body: () => ({ name: 'AUDIT5', type: 'fixed', amount: '5000000' }), action: 'coupon.create' },
      { method: 'PATCH', route: '/coupons/:id', url: () => `/api/v1/admin/coupons/${ids.coupon}`, body: () => ({ maxUses: 3 }), action: 'coupon.update' },
      { method: 'DELETE', route: '/coupons/:id', url: () => `/api/v1/admin/coupons/${ids.coupon}`, action: 'coupon.delete' },
      { method: 'POST', route: '/payments/:id/refund', url: () => `/api/v1/admin/payments/${payment.id}/refund`, body: () => ({ reason: 'audit test refund' }), action: 'payment.refund' },
      { method: 'POST', route: '/payments/:id/complete', url: () => `/api/v1/admin/payments/${order.id}/complete`, body: () => ({ reason: 'audit test completion' }), action: 'payment.complete' },
      { method: 'PATCH', route: '/alerts', url: () => '/api/v1/admin/alerts', body: () => ({ email: false }), action: 'alerts.update' },
      { method: 'POST', route: '/notifications', url: () => '/api/v1/admin/notifications', body: () => ({ to: other.id, text: { en: 'Maintenance tonight', ru: 'Сегодня ночью работы', cn: '今晚维护' } }), action: 'notification.send' },
      { method: 'POST', route: '/legal/:kind/:language', url: () => '/api/v1/admin/legal/terms/en', body: () => ({ body: '# Terms\n\nVersion two.' }), action: 'legal.publish' },
      { method: 'PATCH', route: '/telegram', url: () => '/api/v1/admin/telegram', body: () => ({ mode: 'polling' }), action: 'settings.telegram' },
      { method: 'PATCH', route: '/settings', url: () => '/api/v1/admin/settings', body: () => ({ documentationUrl: 'https://docs.example.com/cellport' }), action: 'settings.update' },
      { method: 'POST', route: '/support/attachments', url: () => '/api/v1/admin/support/attachments?name=a.png', headers: { 'content-type': 'image/png' }, body: () => PNG, action: 'support-attachment.create', status: 201 },
      { method: 'POST', route: '/support/tickets/:id/messages', url: () => `/api/v1/admin/support/tickets/${ticket._id}/messages`, body: () => ({ body: 'An answer' }), action: 'support-ticket.reply', status: 201 },
      { method: 'PATCH', route: '/support/tickets/:id', url: () => `/api/v1/admin/support/tickets/${ticket._id}`, body: () => ({ assigneeId: admin.id, state: 'closed' }), action: 'support-ticket.update' },
      { method: 'POST', route: '/support/canned-replies', url: () => '/api/v1/admin/support/canned-replies', body: () => ({ title: 'Hello', body: 'Hello, how can we help?' }), action: 'support-canned-reply.create', status: 201 },
      { method: 'PATCH', route: '/support/canned-replies/:id', url: () => `/api/v1/admin/support/canned-replies/${ids.canned}`, body: () => ({ title: 'Greeting' }), action: 'support-canned-reply.update' },
      { method: 'DELETE', route: '/support/canned-replies/:id', url: () => `/api/v1/admin/support/canned-replies/${ids.canned}`, action: 'support-canned-reply.delete' },
      { method: 'POST', route: '/subscriptions/:id/cancel', url: () => `/api/v1/admin/subscriptions/${subscription.id}/cancel`, body: () => ({ reason: 'customer asked' }), action: 'subscription.cancel' },
    ];

    // A new write endpoint without a call here fails this test: it would otherwise escape the audit check.
    const writes = registeredRoutes(t.app, '/api/v1/admin').filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${r.url.replace('/api/v1/admin', '')}`).sort();
    expect(calls.map((c) => `${c.method} ${c.route}`).sort()).toEqual(writes);

    for (const c of calls) {
      if (c.action === 'host.delete') {
        keep('emptyHost', (await call(t, admin.cookie, 'POST', '/api/v1/admin/hosts', { name: 'empty-host', address: '10.2.2.2' })).json().host.id);
        await t.ctx.db.deleteFrom('audit_log').where('action', '=', 'host.create').where('target_id', '=', ids.emptyHost!).execute();
      }
      if (c.action === 'modem.adopt') {
        // The host's agent reported a modem the inventory does not know: the console adds it from that report.
        await t.ctx.db.insertInto('host_modem_reports').values({
          host_id: ids.host!, imei: '869999999999993', report: JSON.stringify({ driver: 'hilink', model: 'E3372h-320', extIp: '203.0.113.9' }),
        }).execute();
      }
      if (c.action === 'modem.return_to_service') {
        // A modem goes into maintenance when its ports are moved off it (replacement, issue 15 item 6).
        await t.ctx.db.updateTable('modems').set({ maintenance_since: new Date(), maintenance_reason: 'offline too long' }).where('id', '=', ids.modem!).execute();
      }
      if (c.action === 'country.delete') {
        keep('emptyCountry', (await call(t, admin.cookie, 'POST', '/api/v1/admin/countries', { code: 'BE', names: { en: 'Belgium', ru: 'Бельгия', cn: '比利时' } })).json().country.id);
      }
      if (c.action === 'tariff.update') {
        // the region and carrier deletes below need a tariff that does not point at them
        await t.ctx.db.updateTable('tariffs').set({ carrier_id: null, region_id: null }).where('id', '=', ids.tariff!).execute();
      }
      const before = await t.ctx.db.selectFrom('audit_log').select('id').orderBy('id', 'desc').limit(1).executeTakeFirst();
      const res = await call(t, admin.cookie, c.method, c.url(), c.body?.(), c.headers);
      const status = c.status ?? 200;
      expect({ call: c.action, status: res.statusCode, body: res.statusCode === status ? null : res.body }).toEqual({ call: c.action, status, body: null });
      const body = res.json();
      if (c.action === 'admin.create') keep('admin', body.admin.id);
      if (c.action === 'host.create') keep('host', body.host.id);
      if (c.action === 'gateway.create') keep('gateway', body.gateway.id);
      if (c.action === 'modem.create') keep('modem', body.modem.id);
      if (c.action === 'country.create') keep('country', body.country.id);
      if (c.action === 'carrier.create') keep('carrier', body.carrier.id);
      if (c.action === 'region.create') keep('region', body.region.id);
      if (c.action === 'tariff.create') keep('tariff', body.tariff.id);
      if (c.action === 'coupon.create') keep('coupon', body.coupon.id);
      if (c.action === 'support-canned-reply.create') keep('canned', body.item._id);
      const rows = await t.ctx.db.selectFrom('audit_log').selectAll().where('id', '>', before?.id ?? '0').execute();
      expect({ call: c.action, actions: rows.map((r) => r.action) }).toEqual({ call: c.action, actions: [c.action] });
      const [row] = rows;
      expect(row!.admin_id).toBe(admin.id);
      expect(row!.ip).toBeTruthy();
      expect(Date.now() - row!.created_at.getTime()).toBeLessThan(120_000);
      const creates = c.action.endsWith('.create') || ['modem.import', 'modem.adopt', 'notification.send'].includes(c.action);
      if (!creates) expect({ call: c.action, before: row!.before !== null }).toEqual({ call: c.action, before: true });
      if (!c.action.endsWith('.delete')) expect({ call: c.action, after: row!.after !== null }).toEqual({ call: c.action, after: true });
    }

    const search = (await call(t, admin.cookie, 'GET', `/api/v1/admin/audit?q=${encodeURIComponent('KPN Mobile')}`)).json();
    expect(search.items.map((i: { action: string }) => i.action).sort()).toEqual(['carrier.delete', 'carrier.update']);
    const byAction = (await call(t, admin.cookie, 'GET', `/api/v1/admin/audit?action=payment.refund&admin_id=${admin.id}`)).json();
    expect(byAction).toMatchObject({ total: 1, items: [{ adminEmail: admin.email, targetType: 'payment', targetId: payment.id }] });
    const today = new Date().toISOString().slice(0, 10);
    const ranged = (await call(t, admin.cookie, 'GET', `/api/v1/admin/audit?from=${today}&to=${today}&pageSize=5`)).json();
    const logged = await t.ctx.db.selectFrom('audit_log').select('id').execute();
    expect(logged.length).toBeGreaterThanOrEqual(calls.length);
    expect(ranged).toMatchObject({ total: logged.length, pageSize: 5 });
    expect(ranged.items).toHaveLength(5);
    expect((await call(t, admin.cookie, 'GET', '/api/v1/admin/audit?from=2000-01-01&to=2000-01-02')).json().total).toBe(0);
  });

  it('never logs secrets: a created admin\'s password, hashes, TOTP secrets and tokens are redacted', async () => {
    const res = await call(t, admin.cookie, 'POST', '/api/v1/admin/admins', { email: 'new-admin@ops.example' });
    const { password } = res.json();
    expect(password).toMatch(/^.{16}$/);
    const { redact } = await import('../src/modules/audit/redact.js');
    expect(redact({ password_hash: 'h', totp_secret: 's', rotation_token_hash: 't', nested: { apiKey: 'k', ok: 1n } }))
      .toEqual({ password_hash: '[redacted]', totp_secret: '[redacted]', rotation_token_hash: '[redacted]', nested: { apiKey: '[redacted]', ok: '1' } });
    const rows = await t.ctx.db.selectFrom('audit_log').select(['before', 'after']).execute();
    expect(JSON.stringify(rows)).not.toContain(password);
  });

  it('settings show keys as booleans only; the documentation link override reaches GET /api/v1/settings', async () => {
    const t2 = await buildTestApp({ DOCUMENTATION_URL: 'https://docs.configured.example', STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' });
    try {
      const a = await signedIn(t2);
      const s = await call(t2, a.cookie, 'GET', '/api/v1/admin/settings');
      expect(s.json()).toMatchObject({ card: { mode: 'stripe', secretKeySet: true, webhookSecretSet: true }, documentationUrl: 'https://docs.configured.example' });
      expect(s.body).not.toContain('sk_test_abc');
      expect(s.body).not.toContain('whsec_abc');
      await call(t2, a.cookie, 'PATCH', '/api/v1/admin/settings', { documentationUrl: 'https://docs.operator.example/start' });
      expect((await call(t2, null, 'GET', '/api/v1/settings')).json().documentationUrl).toBe('https://docs.operator.example/start');
      await call(t2, a.cookie, 'PATCH', '/api/v1/admin/settings', { documentationUrl: null });
      expect((await call(t2, null, 'GET', '/api/v1/settings')).json().documentationUrl).toBe('https://docs.configured.example');
      expect((await call(t2, a.cookie, 'PATCH', '/api/v1/admin/settings', { documentationUrl: 'javascript:alert(1)' })).statusCode).toBe(400);
    } finally { await t2.close(); }
  });

  it('admins: promote by e-mail, never demote yourself or the last admin; overview and notifications', async () => {
    expect((await call(t, admin.cookie, 'DELETE', `/api/v1/admin/admins/${admin.id}`)).json().code).toBe('ADMIN_SELF_DEMOTE');
    const c = await signedIn(t, 'customer');
    const promoted = await call(t, admin.cookie, 'POST', '/api/v1/admin/admins', { email: c.email.toUpperCase() });
    expect(promoted.json()).toMatchObject({ created: false, password: null, admin: { id: c.id } });
    expect((await call(t, c.cookie, 'GET', '/api/v1/admin/admins')).statusCode).toBe(200); // role read fresh after the change
    expect((await call(t, c.cookie, 'DELETE', `/api/v1/admin/admins/${admin.id}`)).statusCode).toBe(200);
    expect((await call(t, admin.cookie, 'GET', '/api/v1/admin/admins')).statusCode).toBe(403);

    const all = await call(t, c.cookie, 'POST', '/api/v1/admin/notifications', { to: 'all', text: { en: 'Hello all', ru: 'Всем привет', cn: '大家好' } });
    expect(all.json().sent).toBeGreaterThanOrEqual(2);
    const ov = (await call(t, c.cookie, 'GET', '/api/v1/admin/overview?days=7')).json();
    expect(ov.revenueByDay).toHaveLength(7);
    expect(ov.revenueByDay.at(-1).date).toBe(new Date().toISOString().slice(0, 10));
  });
});
