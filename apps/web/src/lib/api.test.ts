import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiGet, apiPost } from './api';

afterEach(() => { vi.unstubAllGlobals(); });

describe('api', () => {
  it('sends the page language as Accept-Language, so server-made texts come in the language shown (issue 14, item 3)', async () => {
    const fetchMock = vi.fn(async () => new Response('{}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    vi.stubGlobal('location', { pathname: '/cn/purchases' });
    await apiGet('/payments');
    await apiPost('/payment/balance/renew', {});
    const headers = fetchMock.mock.calls.map((call) => ((call as unknown as [string, RequestInit])[1].headers as Record<string, string>)['accept-language']);
    expect(headers).toEqual(['cn', 'cn']);
  });
});
