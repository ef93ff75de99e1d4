import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { auditOf, call, signedIn, type Signed } from '../../../test/console-helpers.js';

// Issue 18, item 3: each tariff carries its ports' limits; the operator sets them, customers read them.
describe('tariff limits', () => {
  let t: TestApp;
  let admin: Signed;
  let countryId: string;
  beforeEach(async () => {
    t = await buildTestApp();
    admin = await signedIn(t);
    countryId = (await call(t, admin.cookie, 'POST', '/api/v1/admin/countries', { code: 'PL', names: { en: 'Poland', ru: 'Польша', cn: '波兰' } })).json().country.id;
  });
  afterEach(async () => { await t.close(); });
  const base = () => ({ names: { en: 'Poland', ru: 'Польша', cn: '波兰' }, price: '30000000', period: 'month', countryId, isShared: false });

  it('a new tariff has no cap, 200 connections and no quota; limits are saved, merged on PATCH, audited and shown to customers', async () => {
    const plain = (await call(t, admin.cookie, 'POST', '/api/v1/admin/tariffs', base())).json().tariff;
    expect(plain.limits).toEqual({ bandwidthMbps: null, maxConnections: 200, monthlyQuotaGb: null, overQuota: 'block', overQuotaMbps: null });

    const created = await call(t, admin.cookie, 'POST', '/api/v1/admin/tariffs', {
      ...base(), names: { en: 'Capped', ru: 'С лимитом', cn: '限速' },
      limits: { bandwidthMbps: 20, maxConnections: 50, monthlyQuotaGb: 100, overQuota: 'throttle', overQuotaMbps: 1 },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().tariff.id;
    expect(created.json().tariff.limits).toEqual({ bandwidthMbps: 20, maxConnections: 50, monthlyQuotaGb: 100, overQuota: 'throttle', overQuotaMbps: 1 });

    const patched = await call(t, admin.cookie, 'PATCH', `/api/v1/admin/tariffs/${id}`, { limits: { bandwidthMbps: null, monthlyQuotaGb: 250 } });
    expect(patched.json().tariff.limits).toEqual({ bandwidthMbps: null, maxConnections: 50, monthlyQuotaGb: 250, overQuota: 'throttle', overQuotaMbps: 1 });
    const [audit] = await auditOf(t, 'tariff.update');
    expect(audit).toMatchObject({ before: { bandwidth_mbps: 20, monthly_quota_gb: 100 }, after: { bandwidth_mbps: null, monthly_quota_gb: 250 } });

    const row = await t.ctx.db.selectFrom('tariffs').select(['bandwidth_mbps', 'max_connections', 'monthly_quota_gb', 'over_quota', 'over_quota_mbps'])
      .where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ bandwidth_mbps: null, max_connections: 50, monthly_quota_gb: 250, over_quota: 'throttle', over_quota_mbps: 1 });
    const shown = (await call(t, null, 'GET', '/api/v1/tariffs')).json().find((x: { _id: string }) => x._id === id);
    expect(shown.limits).toEqual({ bandwidthMbps: null, maxConnections: 50, monthlyQuotaGb: 250, overQuota: 'throttle', overQuotaMbps: 1 });
  });

  it('refuses limits out of range or a throttle without its rate, with 400 naming the field, and changes nothing', async () => {
    const id = (await call(t, admin.cookie, 'POST', '/api/v1/admin/tariffs', base())).json().tariff.id;
    const cases: Array<[object, RegExp]> = [
      [{ bandwidthMbps: 0 }, /Mbit\/s from 1/],
      [{ bandwidthMbps: 2.5 }, /Mbit\/s from 1/],
      [{ maxConnections: 0 }, /connections from 1/],
      [{ monthlyQuotaGb: -1 }, /GB from 1/],
      [{ overQuota: 'slow' }, /throttled .* or blocked/],
      [{ overQuota: 'throttle' }, /throttled to/],
    ];
    for (const [limits, message] of cases) {
      const created = await call(t, admin.cookie, 'POST', '/api/v1/admin/tariffs', { ...base(), limits });
      expect(created.statusCode, JSON.stringify(limits)).toBe(400);
      expect(created.json().error, JSON.stringify(limits)).toMatch(message);
      const patched = await call(t, admin.cookie, 'PATCH', `/api/v1/admin/tariffs/${id}`, { limits });
      expect(patched.statusCode, JSON.stringify(limits)).toBe(400);
    }
    // The rate may come from before: a tariff that has one switches to throttling with the same PATCH shape.
    expect((await call(t, admin.cookie, 'PATCH', `/api/v1/admin/tariffs/${id}`, { limits: { overQuotaMbps: 2 } })).statusCode).toBe(200);
    const ok = await call(t, admin.cookie, 'PATCH', `/api/v1/admin/tariffs/${id}`, { limits: { overQuota: 'throttle', monthlyQuotaGb: 5 } });
    expect(ok.statusCode, ok.body).toBe(400); // the request itself says throttle without a rate: refused by the schema
    const viaNull = await call(t, admin.cookie, 'PATCH', `/api/v1/admin/tariffs/${id}`, { limits: { overQuota: 'throttle', overQuotaMbps: 2, monthlyQuotaGb: 5 } });
    expect(viaNull.json().tariff.limits).toMatchObject({ overQuota: 'throttle', overQuotaMbps: 2, monthlyQuotaGb: 5 });
    const cleared = await call(t, admin.cookie, 'PATCH', `/api/v1/admin/tariffs/${id}`, { limits: { overQuotaMbps: null } });
    expect(cleared.statusCode).toBe(400);
    expect(cleared.json().error).toMatch(/overQuotaMbps: .*throttled to/);
    expect((await call(t, admin.cookie, 'GET', '/api/v1/admin/catalog')).json().tariffs.find((x: { id: string }) => x.id === id).limits)
      .toMatchObject({ overQuota: 'throttle', overQuotaMbps: 2, monthlyQuotaGb: 5 });
  });
});
