import { apiGet } from '../../../lib/api';
import type { AltchaChallenge } from '../lib/altcha';

/** A fresh signed ALTCHA proof-of-work challenge. */
export const getCaptchaChallenge = () => apiGet<AltchaChallenge>('/captcha/challenge');
