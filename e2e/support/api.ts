// The API beside the page, for what a spec sets up or checks outside the screen it tests.
import type { APIRequestContext } from 'playwright-core';
import { expect } from 'vitest';

/** A same-origin API call with the session of `request`'s context (the Origin header passes the CSRF check). */
export async function apiCall<T>(request: APIRequestContext, baseUrl: string, method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> {
  const response = await request.fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: data === undefined ? { origin: baseUrl } : { origin: baseUrl, 'content-type': 'application/json' },
    ...(data === undefined ? {} : { data }),
  });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
  return (await response.json()) as T;
}

interface Tariff { _id: string; country_id: string; carrier_id: string | null; region_id: string | null; isShared: boolean; rotationInterval: number }

/** The signed-in customer of `request` buys one port of the first dedicated tariff from their balance. */
export async function buyDedicatedPort(request: APIRequestContext, baseUrl: string): Promise<void> {
  const tariffs = await apiCall<Tariff[]>(request, baseUrl, 'GET', '/tariffs');
  const tariff = tariffs.find((x) => !x.isShared) ?? tariffs[0]!;
  await apiCall(request, baseUrl, 'POST', '/payment/balance/buy?lng=en', {
    tariff_id: tariff._id, country_id: tariff.country_id, carrier_id: tariff.carrier_id, region_id: tariff.region_id,
    isShared: tariff.isShared, rotationInterval: tariff.rotationInterval, modemCount: 1,
  });
}
