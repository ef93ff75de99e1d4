import type { Language } from '@cellport/shared/constants';
import type { AdminCatalogResponse } from '@cellport/shared/schemas/admin/catalog';

/** Lookups over GET /admin/catalog for tables that show ids: country names in the reader's language and so on. */
export function catalogNames(catalog: AdminCatalogResponse | undefined, language: Language) {
  const countries = new Map(catalog?.countries.map((c) => [c.id, `${c.names[language] || c.names.en} (${c.code})`]));
  const carriers = new Map(catalog?.carriers.map((c) => [c.id, c.name]));
  const regions = new Map(catalog?.regions.map((r) => [r.id, r.names[language] || r.name]));
  const tariffs = new Map(catalog?.tariffs.map((tf) => [tf.id, tf.names[language] || tf.names.en]));
  return {
    country: (id: string | null) => (id ? countries.get(id) ?? '—' : '—'),
    carrier: (id: string | null) => (id ? carriers.get(id) ?? '—' : '—'),
    region: (id: string | null) => (id ? regions.get(id) ?? '—' : '—'),
    tariff: (id: string | null) => (id ? tariffs.get(id) ?? '—' : '—'),
  };
}
