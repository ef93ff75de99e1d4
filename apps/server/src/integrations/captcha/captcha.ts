import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import { AltchaCaptcha, type AltchaChallenge } from './altcha.js';
import { OffCaptcha } from './off.js';
import { RecaptchaCaptcha } from './recaptcha.js';
import { DatabaseSolutionStore } from './solution-store.js';

export type CaptchaProvider = 'altcha' | 'recaptcha' | 'off';

/** One captcha service behind the sign-in form. The browser proves itself once; the server checks the proof here. */
export interface Captcha {
  readonly provider: CaptchaProvider;
  /** What the browser needs to render the widget (reCAPTCHA site key); null otherwise. */
  readonly siteKey: string | null;
  /** A fresh proof-of-work challenge (ALTCHA only; the others answer null). */
  challenge(): Promise<AltchaChallenge | null>;
  /** Checks the browser's answer: the reCAPTCHA token or the base64 ALTCHA payload. Never throws. */
  verify(response: string, remoteIp: string): Promise<boolean>;
}

export function createCaptcha(config: Config, db: Database): Captcha {
  switch (config.CAPTCHA_PROVIDER) {
    case 'altcha':
      return new AltchaCaptcha({ hmacKey: config.secret, maxNumber: config.ALTCHA_MAX_NUMBER, store: new DatabaseSolutionStore(db) });
    case 'recaptcha':
      return new RecaptchaCaptcha({
        siteKey: config.RECAPTCHA_SITE_KEY ?? null,
        secret: config.RECAPTCHA_SECRET_KEY ?? '',
        verifyUrl: config.RECAPTCHA_VERIFY_URL,
      });
    case 'off':
      return new OffCaptcha();
  }
}
