import { getCaptchaChallenge } from '../api/get-captcha-challenge';
import { getCaptchaConfig } from '../api/get-captcha-config';
import { verifyCaptcha } from '../api/verify-captcha';
import { altchaPayload, solveAltcha } from './altcha';

async function altchaToken(): Promise<string> {
  const challenge = await getCaptchaChallenge();
  const number = await solveAltcha(challenge);
  if (number === null) throw new Error('ALTCHA challenge has no solution');
  return altchaPayload(challenge, number);
}

async function run(): Promise<void> {
  const config = await getCaptchaConfig();
  if (config.provider === 'off' || config.passed) return;
  let token: string;
  if (config.provider === 'altcha') token = await altchaToken();
  else {
    if (!config.siteKey) throw new Error('reCAPTCHA has no site key');
    token = await (await import('./recaptcha')).recaptchaToken(config.siteKey);
  }
  const { success } = await verifyCaptcha(token);
  if (!success) throw new Error('Captcha was not accepted');
}

let pending: Promise<void> | null = null;

/**
 * Passes the hidden captcha once per page load (the server then remembers this browser by cookie). Callers share
 * one run; a failed run is forgotten so the next call tries again.
 */
export function passCaptcha(): Promise<void> {
  pending ??= run().catch((error: unknown) => {
    pending = null;
    throw error;
  });
  return pending;
}

/** Forgets a finished run, for when the server says the pass is gone (CAPTCHA_REQUIRED). */
export function forgetCaptcha(): void {
  pending = null;
}
