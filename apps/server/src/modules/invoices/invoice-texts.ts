import { FALLBACK_LANGUAGE, isLanguage, LANGUAGES, type Language } from '@cellport/shared/constants';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The shape of packages/shared/locales/<lng>/invoice.json. */
export interface InvoiceLabels {
  title: string;
  issued: string;
  paidBy: { card: string; crypto: string; paypal: string; balance: string; other: string };
  seller: string;
  billedTo: string;
  description: string;
  quantity: string;
  unitPrice: string;
  amount: string;
  totalPaid: string;
  footer: string;
  /** A top-up's document (decision 038): a receipt, with its own title, wording and note. */
  receiptTitle: string;
  receivedFrom: string;
  totalReceived: string;
  receiptNote: string;
  receiptFooter: string;
  /** On an invoice paid from the balance: the money was acknowledged by receipt before, invoiced here once. */
  balanceNote: string;
  taxId: string;
  vatNumber: string;
  /** Invoice lines, written in the buyer's language when the invoice is issued. */
  lines: {
    /** '{{place}}: {{tariff}}' in the language's words; the tariff's name already says its period. */
    purchase: string;
    /** A country with the carrier chosen, '{{country}} ({{carrier}})'. */
    placeWithCarrier: string;
    renewal: string;
    coupon: string;
    discount: string;
  };
}

const localesDir = join(dirname(createRequire(import.meta.url).resolve('@cellport/shared/package.json')), 'locales');

/** Read once at start, the same files the web app loads. */
const labels = new Map<Language, InvoiceLabels>(
  LANGUAGES.map((lng) => [lng, JSON.parse(readFileSync(join(localesDir, lng, 'invoice.json'), 'utf8')) as InvoiceLabels]),
);

/** Our language codes → BCP 47 locales for Intl ('cn' is Simplified Chinese as used in mainland China). */
const INTL_LOCALES: Record<Language, string> = { en: 'en-US', ru: 'ru-RU', cn: 'zh-CN' };

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);

/** Labels and formatters of one language; an unknown language falls back to English. */
export interface InvoiceTexts {
  language: Language;
  labels: InvoiceLabels;
  title(number: string, document?: 'invoice' | 'receipt'): string;
  taxId(taxId: string): string;
  vatNumber(vat: string): string;
  totalReceived(micro: string): string;
  issued(iso: string): string;
  paidBy(provider: string): string;
  /** Micro-units (1 USD = 1 000 000) as a currency amount, e.g. 'US$1,234.50' / '1 234,50 $'. */
  money(micro: string): string;
  quantity(n: number): string;
  /** 'Total paid: $12.00' with the language's own punctuation. */
  total(micro: string): string;
  /**
   * Line texts: 'Mobile proxy port, United States (AT&T): Dedicated · Week', 'Proxy 3: Dedicated · Week, 10 d',
   * 'Coupon SPRING' or 'Discount'.
   */
  purchaseLine(tariff: string, country: string, carrier?: string | null): string;
  renewalLine(port: string, tariff: string, days: number): string;
  discountLine(coupon: string | null | undefined): string;
}

/** One per language: creating the Intl formatters costs more than a whole purchase statement (a purchase hot path). */
const textsByLanguage = new Map<Language, InvoiceTexts>();

export function invoiceTexts(language: string | null | undefined): InvoiceTexts {
  const lng: Language = isLanguage(language) ? language : FALLBACK_LANGUAGE;
  let texts = textsByLanguage.get(lng);
  if (!texts) {
    texts = createInvoiceTexts(lng);
    textsByLanguage.set(lng, texts);
  }
  return texts;
}

function createInvoiceTexts(lng: Language): InvoiceTexts {
  const l = labels.get(lng) as InvoiceLabels;
  const locale = INTL_LOCALES[lng];
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
  const currency = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' });
  const integers = new Intl.NumberFormat(locale);
  return {
    language: lng,
    labels: l,
    title: (number, document = 'invoice') => fill(document === 'receipt' ? l.receiptTitle : l.title, { number }),
    taxId: (taxId) => fill(l.taxId, { taxId }),
    vatNumber: (vat) => fill(l.vatNumber, { vat }),
    totalReceived: (micro) => fill(l.totalReceived, { amount: currency.format(centsAsDecimal(BigInt(micro))) }),
    issued: (iso) => fill(l.issued, { date: dates.format(new Date(iso)) }),
    paidBy: (provider) => provider in l.paidBy && provider !== 'other'
      ? l.paidBy[provider as keyof InvoiceLabels['paidBy']]
      : fill(l.paidBy.other, { method: provider }),
    money: (micro) => currency.format(centsAsDecimal(BigInt(micro))),
    quantity: (n) => integers.format(n),
    total: (micro) => fill(l.totalPaid, { amount: currency.format(centsAsDecimal(BigInt(micro))) }),
    purchaseLine: (tariff, country, carrier) => fill(l.lines.purchase, {
      tariff, place: carrier ? fill(l.lines.placeWithCarrier, { country, carrier }) : country,
    }),
    renewalLine: (port, tariff, days) => fill(l.lines.renewal, { port, tariff, days: integers.format(days) }),
    discountLine: (coupon) => (coupon ? fill(l.lines.coupon, { name: coupon }) : l.lines.discount),
  };
}

/**
 * Micro-units rounded down to whole cents, as an exact decimal string ('-1234.05'). Intl formats decimal strings
 * exactly, so no amount passes through a float.
 */
export function centsAsDecimal(micro: bigint): `${number}` {
  const negative = micro < 0n;
  const cents = (negative ? -micro : micro) / 10_000n;
  return `${negative ? '-' : ''}${cents / 100n}.${String(cents % 100n).padStart(2, '0')}` as `${number}`;
}
