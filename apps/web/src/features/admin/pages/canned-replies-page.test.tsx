// @vitest-environment happy-dom
import type { CannedReply } from '@cellport/shared/schemas/support';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { submitRightAfterOpening } from '../../../lib/discrete-input.test-support';
import { updateCannedReply } from '../api/support';
import { CannedRepliesPage } from './canned-replies-page';

// Texts are their keys: no locale files to load.
vi.mock('../../../lib/i18n', async (original) => ({
  ...await original<typeof import('../../../lib/i18n')>(), useT: () => ({ t: (key: string) => key, language: 'en' }),
}));
vi.mock('../../../lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
vi.mock('../api/support', async (original) => ({
  ...await original<typeof import('../api/support')>(), updateCannedReply: vi.fn(async () => ({ item: {} })),
}));

const KEY = ['admin', 'support', 'canned'];
const reply = { _id: 'r1', title: 'Refund', body: 'Your refund is on its way.' } as CannedReply;

/** The page over a cache that already holds the replies (fresh for ever: nothing is fetched). */
function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(KEY, [reply]);
  render(<QueryClientProvider client={client}><CannedRepliesPage /></QueryClientProvider>);
}

// A save refetches every admin query: that fetch never answers here (the cache holds what the test set).
vi.stubGlobal('fetch', () => new Promise<never>(() => {}));

afterEach(() => { cleanup(); vi.mocked(updateCannedReply).mockClear(); });

describe('canned replies, Edit', () => {
  it('saves the reply as shown when Save comes before a default-priority render', async () => {
    renderPage();
    await submitRightAfterOpening(screen.getByRole('button', { name: 'actions.editNamed' }));
    await waitFor(() => expect(updateCannedReply).toHaveBeenCalledWith({ id: 'r1', title: 'Refund', body: 'Your refund is on its way.' }));
    expect(screen.queryByText('required')).toBeNull();
  });

});
