import type { Captcha } from './captcha.js';

/** No captcha (CAPTCHA_PROVIDER=off): every browser counts as having passed. */
export class OffCaptcha implements Captcha {
  readonly provider = 'off' as const;
  readonly siteKey = null;
  async challenge() { return null; }
  async verify() { return true; }
}
