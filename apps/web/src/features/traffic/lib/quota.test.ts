import { describe, expect, it } from 'vitest';
import { limitsText, quotaView } from './quota';

describe('usage against the quota', () => {
  it('gives the percent used, a bar that stops at 100, and a tone that warns from 80 %', () => {
    expect(quotaView({ bytes: '25000000000', quotaBytes: '100000000000', state: 'ok' }, 'en'))
      .toEqual({ percent: 25, fill: 25, used: '25 GB', quota: '100 GB', tone: 'ok' });
    expect(quotaView({ bytes: '85000000000', quotaBytes: '100000000000', state: 'ok' }, 'en')).toMatchObject({ percent: 85, tone: 'warn' });
    expect(quotaView({ bytes: '130000000000', quotaBytes: '100000000000', state: 'blocked' }, 'en')).toMatchObject({ percent: 130, fill: 100, tone: 'over' });
    // The server's state wins: throttled is over, whatever the bytes say.
    expect(quotaView({ bytes: '0', quotaBytes: '1000000000', state: 'throttled' }, 'en')).toMatchObject({ percent: 0, tone: 'over' });
  });

  it('without a quota there is no percent, only what was used', () => {
    expect(quotaView({ bytes: '1500000', quotaBytes: null, state: 'ok' }, 'en')).toEqual({ percent: null, fill: 0, used: '1.5 MB', quota: null, tone: 'ok' });
  });

  it('says each limit, and what happens past the quota', () => {
    const t = (key: string, vars?: Record<string, string | number>) => `${key}${vars ? JSON.stringify(vars) : ''}`;
    expect(limitsText({ bandwidthMbps: null, maxConnections: 200, monthlyQuotaGb: null, overQuota: 'block', overQuotaMbps: null }, t))
      .toEqual(['limits.noCap', 'limits.connections{"count":200}', 'limits.noQuota']);
    expect(limitsText({ bandwidthMbps: 20, maxConnections: 50, monthlyQuotaGb: 100, overQuota: 'throttle', overQuotaMbps: 1 }, t))
      .toEqual(['limits.cap{"mbps":20}', 'limits.connections{"count":50}', 'limits.quotaThrottle{"gb":100,"mbps":1}']);
    expect(limitsText({ bandwidthMbps: null, maxConnections: 5, monthlyQuotaGb: 10, overQuota: 'block', overQuotaMbps: null }, t).at(-1))
      .toBe('limits.quotaBlock{"gb":10}');
  });
});
