import { describe, expect, it, vi } from 'vitest';
import { pollActiveCryptoPayment } from './poll-active-crypto-payment';

const payment = { _id: 'p1', provider: 'crypto', status: 'pending', coin: 'usdt', amount: '5000000', data: { address: 'T1', amount: '5000000', amountBTC: null, coin: 'usdt' } };

describe('pollActiveCryptoPayment', () => {
  it('sends no If-None-Match the first time and returns the payment with its ETag', async () => {
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ data: payment }), { status: 200, headers: { etag: '"c4"' } }));
    await expect(pollActiveCryptoPayment(null, fetchImpl)).resolves.toEqual({ changed: true, etag: '"c4"', payment });
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/pending-crypto-payment-active');
    expect((init.headers as Record<string, string>)['if-none-match']).toBeUndefined();
  });

  it('sends the last ETag and reports a 304 as unchanged', async () => {
    const fetchImpl = vi.fn(async () => new Response(null, { status: 304 }));
    await expect(pollActiveCryptoPayment('"c4"', fetchImpl)).resolves.toEqual({ changed: false });
    const init = (fetchImpl.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect((init.headers as Record<string, string>)['if-none-match']).toBe('"c4"');
    expect(init.cache).toBe('no-store');
  });

  it('reports no active payment as a change to null', async () => {
    const fetchImpl = vi.fn(async () => new Response(JSON.stringify({ data: null }), { status: 200, headers: { etag: '"c5"' } }));
    await expect(pollActiveCryptoPayment('"c4"', fetchImpl)).resolves.toEqual({ changed: true, etag: '"c5"', payment: null });
  });

  it('throws an ApiError with the status for a signed-out session', async () => {
    const fetchImpl = vi.fn(async () => new Response('{}', { status: 401 }));
    await expect(pollActiveCryptoPayment(null, fetchImpl)).rejects.toMatchObject({ status: 401 });
  });
});
