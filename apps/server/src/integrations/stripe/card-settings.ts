/** Which card provider runs: real Stripe, the offline sandbox, or none. */
export type CardProviderKind = 'stripe' | 'sandbox' | 'off';

export interface CardSettingsInput {
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_PUBLISHABLE_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
  STRIPE_API_BASE?: string | undefined;
}

/**
 * Decides the card provider from the settings and lists what is wrong with them.
 * - All three keys set → Stripe. Some but not all → refused: without the webhook secret nothing could ever be
 *   credited, and without the publishable key the browser cannot show Stripe's card form.
 * - No keys outside production → the offline sandbox (4242 4242 4242 4242 pays).
 * - No keys in production → card payments are off. The sandbox would hand out real balance for test cards.
 * - In production, test-mode keys are refused for the same reason, and STRIPE_API_BASE (a test-only override that
 *   would send the secret key to another host) is refused.
 */
export function resolveCardProvider(env: CardSettingsInput, isProduction: boolean): { provider: CardProviderKind; problems: string[] } {
  const keys = [env.STRIPE_SECRET_KEY, env.STRIPE_PUBLISHABLE_KEY, env.STRIPE_WEBHOOK_SECRET];
  const set = keys.filter(Boolean).length;
  const problems: string[] = [];
  if (set > 0 && set < 3) {
    problems.push('STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET must be set together');
  }
  if (env.STRIPE_SECRET_KEY && !/^(sk|rk)_(test|live)_/.test(env.STRIPE_SECRET_KEY)) problems.push('STRIPE_SECRET_KEY must start with sk_ or rk_');
  if (env.STRIPE_PUBLISHABLE_KEY && !/^pk_(test|live)_/.test(env.STRIPE_PUBLISHABLE_KEY)) problems.push('STRIPE_PUBLISHABLE_KEY must start with pk_');
  if (env.STRIPE_WEBHOOK_SECRET && !env.STRIPE_WEBHOOK_SECRET.startsWith('whsec_')) problems.push('STRIPE_WEBHOOK_SECRET must start with whsec_');
  if (isProduction) {
    if (env.STRIPE_SECRET_KEY && /^(sk|rk)_test_/.test(env.STRIPE_SECRET_KEY)) problems.push('STRIPE_SECRET_KEY is a test-mode key; test cards would buy real balance');
    if (env.STRIPE_API_BASE) problems.push('STRIPE_API_BASE is for tests only and must not be set in production');
  }
  const provider: CardProviderKind = set === 3 ? 'stripe' : isProduction ? 'off' : 'sandbox';
  return { provider, problems };
}
