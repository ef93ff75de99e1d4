import type { AdminCatalogResponse } from '@cellport/shared/schemas/admin/catalog';

const words = (name: string) => name.toLowerCase().normalize('NFKD').split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** Whether `inner` appears in `outer` as whole words, in order ("vodafone uk" in "vodafone uk ltd", "ee" not in "freedom"). */
function containsWords(outer: string[], inner: string[]): boolean {
  if (inner.length === 0 || inner.length > outer.length) return false;
  for (let i = 0; i + inner.length <= outer.length; i++) if (inner.every((w, j) => outer[i + j] === w)) return true;
  return false;
}

/**
 * The catalog's carrier for the network a modem reports ("Vodafone.de", "T-Mobile", "AT&T Mobility"), so adopting it
 * starts from what the device says: the carrier named exactly so; else the one whose name appears whole-word in the
 * report (the longest such name); else the one whose name holds the report. Null when none fits or two fit equally
 * well: then the operator chooses.
 */
export function reportedCarrier(catalog: Pick<AdminCatalogResponse, 'carriers'>, operator: string | null | undefined): { countryId: string; carrierId: string } | null {
  const reported = words(operator ?? '');
  if (reported.length === 0) return null;
  const named = catalog.carriers.map((c) => ({ c, name: words(c.name) }));
  const tiers = [
    named.filter(({ name }) => name.join(' ') === reported.join(' ')),
    named.filter(({ name }) => containsWords(reported, name)).sort((a, b) => b.name.length - a.name.length),
    named.filter(({ name }) => containsWords(name, reported)).sort((a, b) => a.name.length - b.name.length),
  ];
  const fits = tiers.find((tier) => tier.length > 0);
  if (!fits || (fits.length > 1 && fits[0]!.name.length === fits[1]!.name.length)) return null;
  return { countryId: fits[0]!.c.countryId, carrierId: fits[0]!.c.id };
}
