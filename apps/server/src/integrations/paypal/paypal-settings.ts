export type PayPalMode = 'sandbox' | 'live';

export interface PayPalSettings {
  /** 'off': PayPal is not offered (production without PAYPAL_MODE=live). */
  mode: PayPalMode | 'off';
  /** The business account that must receive the money; IPNs naming another receiver credit nothing. */
  receiverEmail: string;
  /** Where the browser posts the checkout form. */
  checkoutUrl: string;
  /** Where an IPN is posted back for validation. */
  ipnVerifyUrl: string;
  /** Offline completion ("Simulate payment") is allowed: sandbox mode outside production only. */
  simulation: boolean;
}

export interface PayPalSettingsInput {
  PAYPAL_MODE?: PayPalMode | undefined;
  PAYPAL_RECEIVER_EMAIL?: string | undefined;
  PAYPAL_IPN_URL?: string | undefined;
}

export const PAYPAL_SANDBOX_RECEIVER = 'sb-cellport-merchant@business.example.com';

export const PAYPAL_ENDPOINTS = {
  sandbox: { checkout: 'https://www.sandbox.paypal.com/cgi-bin/webscr', ipn: 'https://ipnpb.sandbox.paypal.com/cgi-bin/webscr' },
  live: { checkout: 'https://www.paypal.com/cgi-bin/webscr', ipn: 'https://ipnpb.paypal.com/cgi-bin/webscr' },
} as const;

/**
 * Decides how PayPal runs and lists what is wrong with the settings.
 * - Outside production the default is sandbox mode with a sandbox receiver, and offline completion works.
 * - In production PayPal runs only with PAYPAL_MODE=live and a PAYPAL_RECEIVER_EMAIL; left unset it is off.
 *   PAYPAL_MODE=sandbox is refused: PayPal's sandbox would validate play-money payments that buy real balance.
 *   PAYPAL_IPN_URL (a test-only override of the validation endpoint) is refused too: it decides what counts as paid.
 */
export function resolvePayPalSettings(env: PayPalSettingsInput, isProduction: boolean): { settings: PayPalSettings; problems: string[] } {
  const problems: string[] = [];
  let mode: PayPalSettings['mode'] = env.PAYPAL_MODE ?? (isProduction ? 'off' : 'sandbox');
  if (isProduction) {
    if (env.PAYPAL_MODE === 'sandbox') problems.push('PAYPAL_MODE=sandbox must not be used in production (play money would buy real balance)');
    if (env.PAYPAL_MODE === 'live' && !env.PAYPAL_RECEIVER_EMAIL) problems.push('PAYPAL_RECEIVER_EMAIL must be set for PAYPAL_MODE=live');
    if (env.PAYPAL_IPN_URL) problems.push('PAYPAL_IPN_URL is for tests only and must not be set in production');
    if (problems.length) mode = 'off';
  } else if (env.PAYPAL_MODE === 'live' && !env.PAYPAL_RECEIVER_EMAIL) {
    problems.push('PAYPAL_RECEIVER_EMAIL must be set for PAYPAL_MODE=live');
  }
  const endpoints = PAYPAL_ENDPOINTS[mode === 'live' ? 'live' : 'sandbox'];
  return {
    settings: {
      mode,
      receiverEmail: env.PAYPAL_RECEIVER_EMAIL ?? (mode === 'sandbox' ? PAYPAL_SANDBOX_RECEIVER : ''),
      checkoutUrl: endpoints.checkout,
      ipnVerifyUrl: env.PAYPAL_IPN_URL ?? endpoints.ipn,
      simulation: mode === 'sandbox' && !isProduction,
    },
    problems,
  };
}
