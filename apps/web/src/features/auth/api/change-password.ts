import { apiPost } from '../../../lib/api';

/** Sets a new password with the single-use token from the reset e-mail. */
export const changePassword = (body: { token: string; password: string; revokeAccess: boolean }) =>
  apiPost<{ success?: boolean }>('/change-password', body);
