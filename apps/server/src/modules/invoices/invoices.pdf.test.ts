import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectPdf } from './pdf-text.test-support.js';
import { buildTestApp, type TestApp } from '../../../test/helpers.js';
import { createCustomer, json } from '../../../test/fixtures.js';

// The invoice PDF in the customer's language, with Chinese drawn by the embedded Noto Sans SC subset.
let t: TestApp;
beforeAll(async () => { t = await buildTestApp(); });
afterAll(async () => { await t.close(); });

/** A customer with one paid card top-up (so one receipt, decision 038); returns the cookie and the document's id. */
async function customerWithInvoice(language: string, profile: { name?: string; company_name?: string } = {}) {
  const c = await createCustomer(t, 0, language);
  await t.ctx.db.updateTable('users').set(profile).where('id', '=', c.id).execute();
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/payment/stripe/create-payment-intent', ...json(c.cookie, { amount: 2500 }) });
  expect(res.statusCode, res.body).toBe(200);
  const intent = res.json();
  await t.app.inject({
    method: 'POST', url: '/api/v1/payment/stripe/sandbox/confirm',
    ...json(c.cookie, { clientSecret: intent.payment_intent.client_secret, cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' }),
  });
  const [invoice] = (await t.app.inject({ method: 'GET', url: '/api/v1/invoices', ...json(c.cookie) })).json().data;
  expect(invoice).toBeDefined();
  return { cookie: c.cookie, id: invoice._id as string };
}

const getPdf = async (cookie: string, id: string, query = '') => {
  const res = await t.app.inject({ method: 'GET', url: `/api/v1/invoices/${id}.pdf${query}`, ...json(cookie) });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return res.rawPayload;
};

describe('invoice PDF language and fonts', () => {
  it('a cn customer gets Chinese labels in an embedded Noto Sans SC subset, and a small file', async () => {
    const { cookie, id } = await customerWithInvoice('cn', { name: '王小明', company_name: '北京科技有限公司' });
    const pdf = await getPdf(cookie, id);
    const p = inspectPdf(pdf);
    expect(p.lang).toBe('zh-CN');
    expect(p.fonts).toEqual(expect.arrayContaining(['NotoSansSCThin-Regular', 'NotoSansSCThin-Bold']));
    for (const label of ['收据', '开具日期', '支付方式：银行卡', '销售方', '付款方', '项目', '数量', '单价', '金额', '实收总额', '本收据不是发票', '王小明', '北京科技有限公司']) {
      expect(p.drew(label), label).toBe(true);
    }
    expect(p.drawn.has('?')).toBe(false); // nothing fell back to a replacement character
    expect(pdf.length).toBeLessThan(500 * 1024);
  });

  it('an en customer with a Latin profile gets English labels in DejaVu only (no CJK font embedded)', async () => {
    const { cookie, id } = await customerWithInvoice('en', { name: 'John Smith', company_name: '' });
    const p = inspectPdf(await getPdf(cookie, id));
    expect(p.lang).toBe('en-US');
    expect(p.fonts).toEqual(['DejaVuSans', 'DejaVuSans-Bold']);
    for (const label of ['Receipt', 'Received from', 'Description', 'Unit price', 'Total received', 'John Smith']) expect(p.drew(label), label).toBe(true);
  });

  it("a ru customer's Chinese company name still prints (CJK font for that run only); ?lng= overrides the language", async () => {
    const { cookie, id } = await customerWithInvoice('ru', { name: 'Иван Петров', company_name: '北京公司' });
    const ru = inspectPdf(await getPdf(cookie, id));
    expect(ru.lang).toBe('ru-RU');
    expect(ru.fonts).toEqual(['DejaVuSans', 'DejaVuSans-Bold', 'NotoSansSCThin-Regular']);
    for (const text of ['Квитанция', 'Плательщик', 'Итого получено', 'Иван Петров', '北京公司']) expect(ru.drew(text), text).toBe(true);
    expect(ru.drawn.has('?')).toBe(false);

    const cn = inspectPdf(await getPdf(cookie, id, '?lng=cn'));
    expect(cn.lang).toBe('zh-CN');
    expect(cn.drew('实收总额')).toBe(true);
    expect(inspectPdf(await getPdf(cookie, id, '?lng=xx')).lang).toBe('ru-RU'); // an unknown ?lng= is ignored
  });

  it('a company name mixing Cyrillic and Chinese prints both (each part in the font that has it)', async () => {
    const { cookie, id } = await customerWithInvoice('ru', { name: 'Иван', company_name: 'ООО Ромашка 北京分公司' });
    const p = inspectPdf(await getPdf(cookie, id));
    for (const text of ['ООО Ромашка', '北京分公司']) expect(p.drew(text), text).toBe(true);
    expect(p.drawn.has('?')).toBe(false);
  });
});
