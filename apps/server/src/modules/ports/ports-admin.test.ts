import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { seedTestCatalog } from '../../../test/fixtures.js';
import { auditOf, call, signedIn, type Signed } from '../../../test/console-helpers.js';

describe('admin ports: suspend and resume (abuse handling)', () => {
  let t: TestApp;
  let admin: Signed;
  let owner: Signed;
  let portId: string;
  beforeEach(async () => {
    t = await buildTestApp();
    admin = await signedIn(t);
    owner = await signedIn(t, 'customer');
    const { usId, dedicatedMonth } = await seedTestCatalog(t);
    const modem = await t.ctx.db.selectFrom('modems').select('id').where('country_id', '=', usId).where('is_shared', '=', false)
      .where('retired', '=', false).executeTakeFirstOrThrow();
    portId = (await t.ctx.db.insertInto('ports').values({
      user_id: owner.id, modem_id: modem.id, tariff_id: dedicatedMonth.id, is_shared: false, name: 'abuse-port', proxy_login: 'abuser1',
      proxy_password: 'secret1', whitelist: '[]', rotation_nonce: 'n', rotation_token_hash: 'h-abuse', expires_at: new Date(Date.now() + 86_400_000),
    }).returning('id').executeTakeFirstOrThrow()).id;
  });
  afterEach(async () => { await t.close(); });

  const suspendedAt = async () => (await t.ctx.db.selectFrom('ports').select('suspended_at').where('id', '=', portId).executeTakeFirstOrThrow()).suspended_at;

  it('suspends once, refuses a second suspension, resumes once, refuses a second resume; each audited with before and after', async () => {
    const suspended = await call(t, admin.cookie, 'POST', `/api/v1/admin/ports/${portId}/suspend`, { reason: 'Spam complaint #42' });
    expect(suspended.statusCode).toBe(200);
    const at = await suspendedAt();
    expect(at).toBeInstanceOf(Date);
    expect(suspended.json().port).toMatchObject({ id: portId, name: 'abuse-port', status: 'active', suspendedAt: at!.toISOString() });

    const again = await call(t, admin.cookie, 'POST', `/api/v1/admin/ports/${portId}/suspend`, {});
    expect([again.statusCode, again.json().code]).toEqual([409, 'PORT_ALREADY_SUSPENDED']);
    expect((await suspendedAt())!.toISOString()).toBe(at!.toISOString());

    // The customer page shows it.
    const detail = await call(t, admin.cookie, 'GET', `/api/v1/admin/customers/${owner.id}`);
    expect(detail.json().ports).toMatchObject([{ id: portId, suspendedAt: at!.toISOString() }]);

    const resumed = await call(t, admin.cookie, 'POST', `/api/v1/admin/ports/${portId}/resume`);
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json().port.suspendedAt).toBeNull();
    expect(await suspendedAt()).toBeNull();
    const twice = await call(t, admin.cookie, 'POST', `/api/v1/admin/ports/${portId}/resume`, { reason: 'cleared' });
    expect([twice.statusCode, twice.json().code]).toEqual([409, 'PORT_NOT_SUSPENDED']);

    const [suspendEntry, ...moreSuspends] = await auditOf(t, 'port.suspend');
    expect(moreSuspends).toEqual([]);
    expect(suspendEntry).toMatchObject({
      admin_id: admin.id, target_type: 'port', target_id: portId,
      before: { name: 'abuse-port', owner: owner.email, suspendedAt: null },
      after: { name: 'abuse-port', owner: owner.email, suspendedAt: at!.toISOString(), reason: 'Spam complaint #42' },
    });
    const resumeEntries = await auditOf(t, 'port.resume');
    expect(resumeEntries).toHaveLength(1);
    expect(resumeEntries[0]).toMatchObject({
      admin_id: admin.id, target_id: portId,
      before: { suspendedAt: at!.toISOString() }, after: { suspendedAt: null, reason: null },
    });
  });

  it('answers 404 for an unknown port and 409 for a released one', async () => {
    const unknown = await call(t, admin.cookie, 'POST', '/api/v1/admin/ports/00000000-0000-4000-8000-000000000000/suspend');
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'PORT_NOT_FOUND']);
    expect((await call(t, admin.cookie, 'POST', '/api/v1/admin/ports/00000000-0000-4000-8000-000000000000/resume')).statusCode).toBe(404);
    await t.ctx.db.updateTable('ports').set({ status: 'released', released_at: new Date() }).where('id', '=', portId).execute();
    const released = await call(t, admin.cookie, 'POST', `/api/v1/admin/ports/${portId}/suspend`);
    expect([released.statusCode, released.json().code]).toEqual([409, 'PORT_RELEASED']);
    expect(await suspendedAt()).toBeNull();
    expect(await auditOf(t, 'port.suspend')).toEqual([]);
  });

  it('refuses a too-short reason (400) and changes nothing', async () => {
    const res = await call(t, admin.cookie, 'POST', `/api/v1/admin/ports/${portId}/suspend`, { reason: 'x' });
    expect(res.statusCode).toBe(400);
    expect(await suspendedAt()).toBeNull();
  });

  it('is for operators only: the port owner and other customers get 403, a visitor 401, and nothing changes', async () => {
    const other = await signedIn(t, 'customer');
    for (const who of [owner, other]) {
      for (const action of ['suspend', 'resume']) {
        const res = await call(t, who.cookie, 'POST', `/api/v1/admin/ports/${portId}/${action}`, {});
        expect([res.statusCode, res.json().code]).toEqual([403, 'FORBIDDEN']);
      }
    }
    expect((await call(t, null, 'POST', `/api/v1/admin/ports/${portId}/suspend`)).statusCode).toBe(401);
    expect(await suspendedAt()).toBeNull();
    expect(await auditOf(t, 'port.suspend')).toEqual([]);
  });
});
