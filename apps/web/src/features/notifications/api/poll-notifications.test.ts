import { describe, expect, it, vi } from 'vitest';
import { pollNotifications } from './poll-notifications';

const list = [{ _id: 'a', text: 'Hi', unread: true, type: 'other', timestamp: '2026-01-01T00:00:00Z' }];

describe('pollNotifications', () => {
  it('sends no If-None-Match the first time and returns the list with its ETag', async () => {
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ version: 3, data: list }), { status: 200, headers: { etag: '"n3"' } }));
    await expect(pollNotifications(null, fetchImpl)).resolves.toEqual({ changed: true, etag: '"n3"', data: list });
    const init = (fetchImpl.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect((init.headers as Record<string, string>)['if-none-match']).toBeUndefined();
  });

  it('sends the last ETag and reports a 304 as unchanged', async () => {
    const fetchImpl = vi.fn(async () => new Response(null, { status: 304 }));
    await expect(pollNotifications('"n3"', fetchImpl)).resolves.toEqual({ changed: false });
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/notifications');
    expect((init.headers as Record<string, string>)['if-none-match']).toBe('"n3"');
  });

  it('asks for the texts in the page language (the path\'s first segment), not the browser\'s', async () => {
    vi.stubGlobal('location', { pathname: '/ru/purchases' });
    try {
      const fetchImpl = vi.fn(async () => new Response(null, { status: 304 }));
      await pollNotifications(null, fetchImpl);
      const init = (fetchImpl.mock.calls[0] as unknown as [string, RequestInit])[1];
      expect((init.headers as Record<string, string>)['accept-language']).toBe('ru');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('throws an ApiError with the status for a signed-out session', async () => {
    const fetchImpl = vi.fn(async () => new Response('{}', { status: 401 }));
    await expect(pollNotifications(null, fetchImpl)).rejects.toMatchObject({ status: 401 });
  });
});
