import type { Captcha } from './captcha.js';

interface Options { siteKey: string | null; secret: string; verifyUrl: string; timeoutMs?: number }

/**
 * Google reCAPTCHA: the browser's token is checked by Google's siteverify endpoint (a form POST with our secret).
 * A network failure or a timeout counts as not passed, never as passed.
 */
export class RecaptchaCaptcha implements Captcha {
  readonly provider = 'recaptcha' as const;
  readonly siteKey: string | null;

  constructor(private readonly options: Options) {
    this.siteKey = options.siteKey;
  }

  async challenge() { return null; }

  async verify(response: string, remoteIp: string): Promise<boolean> {
    if (!response || response.length > 10_000) return false;
    const body = new URLSearchParams({ secret: this.options.secret, response });
    if (remoteIp) body.set('remoteip', remoteIp);
    try {
      const res = await fetch(this.options.verifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 5_000),
      });
      if (!res.ok) return false;
      const json = (await res.json()) as { success?: unknown };
      return json.success === true;
    } catch {
      return false;
    }
  }
}
