import { describe, expect, it } from 'vitest';
import { limitsDraft, limitsSummary, parseLimits } from './tariff-limits';

describe('the tariff form limits', () => {
  it('reads a tariff without limits as empty cap and quota and 200 connections, and saves them back the same', () => {
    const draft = limitsDraft(null);
    expect(draft).toEqual({ bandwidthMbps: '', maxConnections: '200', monthlyQuotaGb: '', overQuota: 'block', overQuotaMbps: '' });
    expect(parseLimits(draft)).toEqual({
      ok: true, value: { bandwidthMbps: null, maxConnections: 200, monthlyQuotaGb: null, overQuota: 'block', overQuotaMbps: null },
    });
  });

  it('takes whole numbers with thousands separators and names each wrong field', () => {
    expect(parseLimits({ bandwidthMbps: '20', maxConnections: '1,000', monthlyQuotaGb: '100', overQuota: 'throttle', overQuotaMbps: '1' }))
      .toEqual({ ok: true, value: { bandwidthMbps: 20, maxConnections: 1000, monthlyQuotaGb: 100, overQuota: 'throttle', overQuotaMbps: 1 } });
    expect(parseLimits({ bandwidthMbps: '0', maxConnections: '', monthlyQuotaGb: '1.5', overQuota: 'throttle', overQuotaMbps: '' }))
      .toEqual({ ok: false, errors: { bandwidthMbps: 'mbps', maxConnections: 'connections', monthlyQuotaGb: 'quota', overQuotaMbps: 'throttle' } });
    expect(parseLimits({ bandwidthMbps: '', maxConnections: '5', monthlyQuotaGb: '', overQuota: 'throttle', overQuotaMbps: '200000' }))
      .toEqual({ ok: false, errors: { overQuotaMbps: 'mbps' } });
  });

  it('ignores the throttle rate of a tariff that blocks', () => {
    expect(parseLimits({ bandwidthMbps: '', maxConnections: '5', monthlyQuotaGb: '10', overQuota: 'block', overQuotaMbps: 'x' }))
      .toEqual({ ok: true, value: { bandwidthMbps: null, maxConnections: 5, monthlyQuotaGb: 10, overQuota: 'block', overQuotaMbps: null } });
  });
});

describe('the tariffs table line', () => {
  const t = (key: string, vars?: Record<string, string | number>) => `${key}${vars ? JSON.stringify(vars) : ''}`;
  it('always names the connection limit (200 by default, never "None") and names what else a tariff sets', () => {
    expect(limitsSummary({ bandwidthMbps: null, maxConnections: 200, monthlyQuotaGb: null, overQuota: 'block', overQuotaMbps: null }, t)).toBe('catalog.limitsConnections{"count":200}');
    expect(limitsSummary({ bandwidthMbps: 20, maxConnections: 50, monthlyQuotaGb: 100, overQuota: 'throttle', overQuotaMbps: 1 }, t))
      .toBe('catalog.limitsMbps{"mbps":20} · catalog.limitsConnections{"count":50} · catalog.limitsQuota{"gb":100,"after":"catalog.limitsMbps{\\"mbps\\":1}"}');
    expect(limitsSummary({ bandwidthMbps: null, maxConnections: 200, monthlyQuotaGb: 5, overQuota: 'block', overQuotaMbps: null }, t))
      .toBe('catalog.limitsConnections{"count":200} · catalog.limitsQuota{"gb":5,"after":"catalog.afterBlock"}');
  });
});
