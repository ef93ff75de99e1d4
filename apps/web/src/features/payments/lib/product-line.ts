import type { Language } from '@cellport/shared/constants';
import type { TFunction } from '../../../lib/i18n';

/** The fields of a payment record the product line reads (crypto payments and pending payments alike). */
export interface ProductFields {
  kind: 'topup' | 'purchase' | 'renewal';
  basket: unknown;
  modemNames: string[];
  countryName: string | null;
  tariffName: { en: string; ru: string; cn: string } | null;
  modemCount: number | null;
}

/**
 * Spec §4, crypto payment product line: 'Renewal for {modem names}' when there is a basket, otherwise
 * '4G {country} {tariff name} - {modemCount}x port'; a top-up reads 'Add funds'.
 */
export function productLine(t: TFunction, language: Language, p: ProductFields): string {
  if (p.basket && Object.keys(p.basket as object).length) return t('payments:product.renewal', { names: p.modemNames.join(', ') });
  if (p.kind === 'topup') return t('payments:product.topup');
  const tariff = p.tariffName ? p.tariffName[language] || p.tariffName.en : '';
  return t('payments:product.purchase', { country: p.countryName ?? '', tariff, count: p.modemCount ?? 1 });
}
