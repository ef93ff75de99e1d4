import type { CaptchaChallenge } from '@cellport/shared/schemas/auth';

export type CaptchaProvider = 'altcha' | 'recaptcha' | 'off';

/** The challenge JSON the browser solves: find n in 0..maxnumber with sha256(salt + n) hex == challenge. */
export type AltchaChallenge = CaptchaChallenge;

/**
 * One captcha service behind the sign-in form (implementations: altcha.ts, recaptcha.ts, off.ts; the composition
 * root picks one from CAPTCHA_PROVIDER).
 * The browser proves itself once; the server checks the proof here.
 */
export interface Captcha {
  readonly provider: CaptchaProvider;
  /** What the browser needs to render the widget (reCAPTCHA site key); null otherwise. */
  readonly siteKey: string | null;
  /** A fresh proof-of-work challenge (ALTCHA only; the others answer null). */
  challenge(): Promise<AltchaChallenge | null>;
  /** Checks the browser's answer: the reCAPTCHA token or the base64 ALTCHA payload. Never throws. */
  verify(response: string, remoteIp: string): Promise<boolean>;
}
