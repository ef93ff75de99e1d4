import { describe, expect, it } from 'vitest';
import { resolveCardProvider } from './card-settings.js';

const keys = { STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_PUBLISHABLE_KEY: 'pk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' };

describe('resolveCardProvider', () => {
  it('uses the offline sandbox without keys outside production, and nothing in production', () => {
    expect(resolveCardProvider({}, false)).toEqual({ provider: 'sandbox', problems: [] });
    expect(resolveCardProvider({}, true)).toEqual({ provider: 'off', problems: [] });
  });

  it('uses Stripe when all three keys are set', () => {
    expect(resolveCardProvider(keys, true)).toEqual({ provider: 'stripe', problems: [] });
    expect(resolveCardProvider({ ...keys, STRIPE_SECRET_KEY: 'sk_test_abc' }, false)).toEqual({ provider: 'stripe', problems: [] });
  });

  it('refuses a partial set of keys (no webhook secret means nothing could ever be credited)', () => {
    expect(resolveCardProvider({ STRIPE_SECRET_KEY: 'sk_test_abc' }, false).problems).toHaveLength(1);
    expect(resolveCardProvider({ ...keys, STRIPE_WEBHOOK_SECRET: undefined }, true).problems).toHaveLength(1);
  });

  it('refuses keys of the wrong kind', () => {
    expect(resolveCardProvider({ ...keys, STRIPE_SECRET_KEY: 'pk_live_abc' }, false).problems).toEqual(['STRIPE_SECRET_KEY must start with sk_ or rk_']);
  });

  it('refuses test-mode keys and the API override in production', () => {
    expect(resolveCardProvider({ ...keys, STRIPE_SECRET_KEY: 'sk_test_abc' }, true).problems[0]).toMatch(/test-mode/);
    expect(resolveCardProvider({ ...keys, STRIPE_API_BASE: 'http://127.0.0.1:1' }, true).problems[0]).toMatch(/STRIPE_API_BASE/);
    expect(resolveCardProvider({ ...keys, STRIPE_API_BASE: 'http://127.0.0.1:1' }, false).problems).toEqual([]);
  });
});
