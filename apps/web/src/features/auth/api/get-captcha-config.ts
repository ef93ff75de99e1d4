import type { captchaConfigSchema } from '@cellport/shared/schemas/auth';
import type * as z from 'zod/mini';
import { apiGet } from '../../../lib/api';

export type CaptchaConfig = z.infer<typeof captchaConfigSchema>;

/** Which captcha this server uses and whether this browser already passed it. */
export const getCaptchaConfig = () => apiGet<CaptchaConfig>('/captcha');
