import type { CaptchaChallenge } from '@cellport/shared/schemas/auth';
import { apiGet } from '../../../lib/api';

/** A fresh signed ALTCHA proof-of-work challenge. */
export const getCaptchaChallenge = () => apiGet<CaptchaChallenge>('/captcha/challenge');
