import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PAYMENT_KINDS, PAYMENT_PROVIDERS, PAYMENT_STATUSES } from '@cellport/shared/schemas/payments';
import { describe, expect, it } from 'vitest';

// Issue 14, item 1: a payment's kind, method and status are looked up by the value the server sends
// (`kind.${payment.kind}`); every value the contract allows must have its text, or the page shows the raw key.
const root = join(__dirname, '../../../../../../packages/shared/locales');
type Tree = { [key: string]: string | Tree };

describe.each(['en', 'ru', 'cn'])('purchases.json (%s)', (lng) => {
  const texts = JSON.parse(readFileSync(join(root, lng, 'purchases.json'), 'utf8')) as Record<string, Tree>;
  it.each([
    ['kind', PAYMENT_KINDS],
    ['provider', PAYMENT_PROVIDERS],
    ['status', PAYMENT_STATUSES],
  ] as const)('has a text for every %s', (group, values) => {
    for (const value of values) expect(texts[group]?.[value], `${lng}:purchases:${group}.${value}`).toEqual(expect.any(String));
  });
});
