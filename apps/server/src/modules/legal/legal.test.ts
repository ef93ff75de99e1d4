import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { auditOf, call, signedIn, type Signed } from '../../../test/console-helpers.js';
import { PASSWORD, postJson } from '../auth/auth.test-helpers.js';

// Terms of Service and Refund Policy (issue 14, item 8): seeded, public, versioned, audited, accepted at sign-up.
let t: TestApp;
let admin: Signed;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await signedIn(t, 'admin');
});
afterAll(async () => { await t.close(); });

const signUp = (login: string, language: string) => postJson(t, '/api/v1/signup', {
  name: 'Ann Lee', company_name: 'Acme', login, password: PASSWORD, purpose: 'Price monitoring across several countries',
  website_wishlist: '', inviteLinkToken: '', language, marketing: true,
});

describe('legal documents', () => {
  it('a fresh install has version 1 of both documents in every language, served publicly', async () => {
    for (const kind of ['terms', 'refund-policy']) {
      const bodies = new Set<string>();
      for (const language of ['en', 'ru', 'cn']) {
        const res = await call(t, null, 'GET', `/api/v1/legal/${kind}?language=${language}`);
        expect(res.statusCode, res.body).toBe(200);
        const doc = res.json();
        expect(doc).toMatchObject({ kind, language, version: 1 });
        expect(doc.body.length).toBeGreaterThan(200);
        expect(Date.parse(doc.publishedAt)).not.toBeNaN();
        bodies.add(doc.body);
      }
      expect(bodies.size).toBe(3); // each language has its own text
    }
    const cn = (await call(t, null, 'GET', '/api/v1/legal/terms?language=cn')).json();
    expect(cn.body).toContain('服务');
    expect((await call(t, null, 'GET', '/api/v1/legal/terms')).json().language).toBe('en');
    expect((await call(t, null, 'GET', '/api/v1/legal/privacy?language=en')).statusCode).toBe(400);
  });

  it('an operator publishes a new version: numbered, dated, authored, audited; the public page shows it', async () => {
    const before = (await call(t, admin.cookie, 'GET', '/api/v1/admin/legal/refund-policy/ru')).json();
    expect(before.versions.map((v: { version: number }) => v.version)).toEqual([1]);
    expect(before.versions[0]).toMatchObject({ authorId: null, authorEmail: null });

    const published = await call(t, admin.cookie, 'POST', '/api/v1/admin/legal/refund-policy/ru', { body: '# Возвраты\n\nНовый текст.' });
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json().version).toMatchObject({ version: 2, body: '# Возвраты\n\nНовый текст.', authorId: admin.id, authorEmail: admin.email });
    const again = await call(t, admin.cookie, 'POST', '/api/v1/admin/legal/refund-policy/ru', { body: 'Третья версия.' });
    expect(again.json().version.version).toBe(3);

    const history = (await call(t, admin.cookie, 'GET', '/api/v1/admin/legal/refund-policy/ru')).json();
    expect(history.versions.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    const pub = (await call(t, null, 'GET', '/api/v1/legal/refund-policy?language=ru')).json();
    expect(pub).toMatchObject({ version: 3, body: 'Третья версия.' });
    expect(pub.publishedAt).toBe(history.versions[0].createdAt);
    // Other languages and the other document keep their own numbering.
    expect((await call(t, null, 'GET', '/api/v1/legal/refund-policy?language=en')).json().version).toBe(1);
    expect((await call(t, null, 'GET', '/api/v1/legal/terms?language=ru')).json().version).toBe(1);

    const audit = (await auditOf(t, 'legal.publish')).filter((a) => a.target_id === 'refund-policy/ru');
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({ admin_id: admin.id, target_type: 'legal_document', before: { version: 1 }, after: { version: 2, body: '# Возвраты\n\nНовый текст.' } });
  });

  it('publishing at the same moment gives each save its own number', async () => {
    const saves = await Promise.all([1, 2, 3].map((n) => call(t, admin.cookie, 'POST', '/api/v1/admin/legal/terms/cn', { body: `并发 ${n}` })));
    expect(saves.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(saves.map((r) => r.json().version.version).sort()).toEqual([2, 3, 4]);
  });

  it('refuses an empty text with a clear message, and customers and visitors', async () => {
    const empty = await call(t, admin.cookie, 'POST', '/api/v1/admin/legal/terms/en', { body: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toMatch(/Markdown/);
    const customer = await signedIn(t, 'customer');
    expect((await call(t, customer.cookie, 'POST', '/api/v1/admin/legal/terms/en', { body: 'x' })).statusCode).toBe(403);
    expect((await call(t, null, 'GET', '/api/v1/admin/legal/terms/en')).statusCode).toBe(401);
  });

  it('sign-up records the versions current in the customer language; the console shows them', async () => {
    await call(t, admin.cookie, 'POST', '/api/v1/admin/legal/terms/ru', { body: 'Условия, версия 2.' });
    const res = await signUp('legal.ru@example.com', 'ru');
    expect(res.statusCode, res.body).toBe(200);
    const user = await t.ctx.db.selectFrom('users').select('id').where('email', '=', 'legal.ru@example.com').executeTakeFirstOrThrow();
    const rows = await t.ctx.db.selectFrom('legal_acceptances').selectAll().where('user_id', '=', user.id).orderBy('kind').execute();
    expect(rows.map((r) => [r.kind, r.language, r.version])).toEqual([['refund-policy', 'ru', 3], ['terms', 'ru', 2]]);

    // A later version does not change what was accepted.
    await call(t, admin.cookie, 'POST', '/api/v1/admin/legal/terms/ru', { body: 'Условия, версия 3.' });
    const detail = await call(t, admin.cookie, 'GET', `/api/v1/admin/customers/${user.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().legalAcceptances).toEqual([
      { kind: 'refund-policy', language: 'ru', version: 3, acceptedAt: expect.any(String) },
      { kind: 'terms', language: 'ru', version: 2, acceptedAt: expect.any(String) },
    ]);

    await signUp('legal.en@example.com', 'en');
    const en = await t.ctx.db.selectFrom('legal_acceptances as a').innerJoin('users as u', 'u.id', 'a.user_id')
      .select(['a.kind', 'a.language', 'a.version']).where('u.email', '=', 'legal.en@example.com').orderBy('a.kind').execute();
    expect(en).toEqual([{ kind: 'refund-policy', language: 'en', version: 1 }, { kind: 'terms', language: 'en', version: 1 }]);
  });
});
