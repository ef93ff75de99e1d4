import { apiPost } from '../../../lib/api';

/** Sends the solved captcha (ALTCHA payload or reCAPTCHA token); the server remembers the pass in a cookie. */
export const verifyCaptcha = (response: string) =>
  apiPost<{ success: boolean }>('/verify-re-captcha', { 'g-recaptcha-response': response });
