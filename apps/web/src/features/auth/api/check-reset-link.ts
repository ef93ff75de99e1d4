import { apiGet } from '../../../lib/api';

/** Whether a reset link can still set a password; throws ApiError (410 RESET_LINK_USED, …) when it cannot. */
export const checkResetLink = (token: string) =>
  apiGet<{ success: boolean }>(`/reset-password/${encodeURIComponent(token)}`);
