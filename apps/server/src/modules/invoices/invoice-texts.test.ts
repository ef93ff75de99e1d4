import { LANGUAGES } from '@cellport/shared/constants';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { centsAsDecimal, invoiceTexts } from './invoice-texts.js';

const localesDir = join(dirname(createRequire(import.meta.url).resolve('@cellport/shared/package.json')), 'locales');
const keysOf = (o: unknown, prefix = ''): string[] =>
  typeof o === 'object' && o !== null ? Object.entries(o).flatMap(([k, v]) => keysOf(v, `${prefix}${k}.`)) : [prefix.slice(0, -1)];

describe('invoice texts', () => {
  it('invoice.json carries the same keys in every language', () => {
    const keys = LANGUAGES.map((lng) => keysOf(JSON.parse(readFileSync(join(localesDir, lng, 'invoice.json'), 'utf8'))).sort());
    for (const k of keys) expect(k).toEqual(keys[0]);
  });

  it('labels come from the customer language; an unknown language falls back to English', () => {
    expect(invoiceTexts('cn').title('CP-2026-000001')).toBe('发票 CP-2026-000001');
    expect(invoiceTexts('cn').labels.billedTo).toBe('购买方');
    expect(invoiceTexts('ru').title('CP-2026-000001')).toBe('Счёт № CP-2026-000001');
    expect(invoiceTexts('en').paidBy('balance')).toBe('Paid from account balance');
    expect(invoiceTexts('cn').paidBy('crypto')).toBe('支付方式：加密货币');
    expect(invoiceTexts('ru').paidBy('wire')).toBe('Способ оплаты: wire');
    expect(invoiceTexts('xx').language).toBe('en');
    expect(invoiceTexts(null).total('12000000')).toBe('Total paid: $12.00');
    expect(invoiceTexts('cn').total('12000000')).toBe('实付总额：US$12.00');
  });

  it('formats dates and money for the language, exactly from micro-units', () => {
    const iso = '2026-11-22T23:30:00.000Z';
    expect(invoiceTexts('en').issued(iso)).toBe('Issued November 22, 2026');
    expect(invoiceTexts('ru').issued(iso)).toBe('Дата выставления: 22 ноября 2026 г.');
    expect(invoiceTexts('cn').issued(iso)).toBe('开具日期：2026年11月22日');
    expect(invoiceTexts('en').money('1234567890000')).toBe('$1,234,567.89');
    expect(invoiceTexts('ru').money('1234560000').replace(/\s/g, ' ')).toBe('1 234,56 $');
    expect(invoiceTexts('cn').money('-10000')).toBe('-US$0.01');
    // Beyond float precision: still exact to the cent.
    expect(centsAsDecimal(90_071_992_547_409_930_000n)).toBe('90071992547409.93');
    expect(invoiceTexts('en').quantity(12000)).toBe('12,000');
  });

  it("writes invoice lines in the buyer's language: period, renewal days, coupon or discount", () => {
    // Issue 14, item 11: the tariff's name says the period once; the country and the carrier are there.
    expect(invoiceTexts('en').purchaseLine('Dedicated · Week', 'United States', 'AT&T')).toBe('Mobile proxy port, United States (AT&T): Dedicated · Week');
    expect(invoiceTexts('ru').purchaseLine('Выделенный · Месяц', 'Германия')).toBe('Мобильный прокси-порт, Германия: Выделенный · Месяц');
    expect(invoiceTexts('cn').purchaseLine('独享 · 周', '美国', 'AT&T')).toBe('移动代理端口，美国（AT&T）：独享 · 周');
    expect(invoiceTexts('ru').renewalLine('Proxy 3', 'Общий · Неделя', 10)).toBe('Proxy 3: Общий · Неделя, 10 дн.');
    expect(invoiceTexts('cn').renewalLine('Proxy 3', '共享 · 周', 1000)).toBe('Proxy 3：共享 · 周，1,000 天');
    expect(invoiceTexts('ru').discountLine('SPRING')).toBe('Купон SPRING');
    expect(invoiceTexts('cn').discountLine(null)).toBe('折扣');
    expect(invoiceTexts('en').discountLine('')).toBe('Discount');
  });
});
