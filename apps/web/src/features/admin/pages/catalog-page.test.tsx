// @vitest-environment happy-dom
import type { AdminCatalogResponse } from '@cellport/shared/schemas/admin/catalog';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { submitRightAfterOpening } from '../../../lib/discrete-input.test-support';
import { updateCarrier } from '../api/catalog';
import { CatalogPage } from './catalog-page';

// Texts are their keys: no locale files to load.
vi.mock('../../../lib/i18n', async (original) => ({
  ...await original<typeof import('../../../lib/i18n')>(), useT: () => ({ t: (key: string) => key, language: 'en' }),
}));
vi.mock('../../../lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
vi.mock('../api/catalog', async (original) => ({ ...await original<typeof import('../api/catalog')>(), updateCarrier: vi.fn(async () => ({})) }));

const KEY = ['admin', 'catalog'];
const GERMANY = '00000000-0000-4000-8000-000000000001';
const catalog: AdminCatalogResponse = {
  countries: [{ id: GERMANY, code: 'DE', names: { en: 'Germany', ru: 'Германия', cn: '德国' }, sort: 0 }],
  carriers: [{ id: '00000000-0000-4000-8000-000000000002', countryId: GERMANY, name: 'Vodafone', asn: 3209 }],
  regions: [], tariffs: [], rotationIntervals: [],
};

/** The catalog page on its carriers tab, over a cache that already holds the catalog (fresh for ever: nothing is fetched). */
function renderCarriers() {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(KEY, catalog);
  render(<QueryClientProvider client={client}><CatalogPage /></QueryClientProvider>);
  fireEvent.click(screen.getByRole('tab', { name: 'catalog.carriers' }));
  return client;
}

// A save refetches every admin query: that fetch never answers here (the cache holds what the test set).
vi.stubGlobal('fetch', () => new Promise<never>(() => {}));

afterEach(() => { cleanup(); vi.mocked(updateCarrier).mockClear(); });

describe('catalog, Edit carrier', () => {
  it('saves the carrier as shown when Save comes before a default-priority render', async () => {
    renderCarriers();
    await submitRightAfterOpening(screen.getByRole('button', { name: 'actions.editNamed' }));
    await waitFor(() => expect(updateCarrier).toHaveBeenCalledWith({ id: catalog.carriers[0]!.id, name: 'Vodafone', asn: '3209' }));
  });

  it('keeps what was typed when the catalog is refetched while the dialog is open', async () => {
    const client = renderCarriers();
    fireEvent.click(screen.getByRole('button', { name: 'actions.editNamed' }));
    const name = screen.getByLabelText('fields.name') as HTMLInputElement;
    fireEvent.change(name, { target: { value: 'Vodafone DE' } });
    // Any console write refetches every admin query: here another operator gave the carrier an ASN meanwhile.
    client.setQueryData(KEY, { ...catalog, carriers: [{ ...catalog.carriers[0]!, asn: 3320 }] });
    await waitFor(() => screen.getByText('AS3320'));
    expect(name.value).toBe('Vodafone DE');
    expect(updateCarrier).not.toHaveBeenCalled();
  });

});
