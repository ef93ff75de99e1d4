import type { OperatorOverrides } from '../../lib/operator-settings-cache.js';

export type { OperatorOverrides };

/** Settings operators edit in the console; a row overrides the configured value of the same meaning. */
export const OPERATOR_SETTING_KEYS = [
  'documentationUrl', 'paypalReceiverEmail', 'replacementAfterMinutes', 'sellerName', 'sellerAddress', 'sellerTaxId',
] as const;
/** The seller's legal details printed on every invoice and receipt (issue 27, item 3), set in the console. */
export const SELLER_SETTING_KEYS = ['sellerName', 'sellerAddress', 'sellerTaxId'] as const;
export type OperatorSettingKey = (typeof OPERATOR_SETTING_KEYS)[number];

/** The overrides the settings rows hold: a value of the wrong type is ignored (the configured value stands). */
export function overridesOf(rows: { key: string; value: unknown }[]): OperatorOverrides {
  const out: OperatorOverrides = {};
  for (const r of rows) {
    if (r.key === 'replacementAfterMinutes') {
      if (typeof r.value === 'number' && r.value > 0) out.replacementAfterMinutes = r.value;
    } else if (typeof r.value === 'string') out[r.key as Exclude<OperatorSettingKey, 'replacementAfterMinutes'>] = r.value;
  }
  return out;
}

/** The seller as printed: the operator's details, the name 'Cellport' until one is set. */
export function sellerOf(o: OperatorOverrides): { name: string; address: string; taxId: string } {
  return { name: o.sellerName ?? 'Cellport', address: o.sellerAddress ?? '', taxId: o.sellerTaxId ?? '' };
}
