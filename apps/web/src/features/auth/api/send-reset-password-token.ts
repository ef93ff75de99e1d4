import type { Language } from '@cellport/shared/constants';
import { apiPost } from '../../../lib/api';

/** Asks for a password-reset link by e-mail. */
export const sendResetPasswordToken = (body: { login: string; language: Language }) =>
  apiPost<{ success?: boolean }>('/send-reset-password-token-to-email', body);
