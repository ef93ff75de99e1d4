import type { CheckLoginResponse } from '@cellport/shared/schemas/auth';
import { apiPost } from '../../../lib/api';

/** Sign-up step 1 pre-check (spec §5): throws ApiError (409 EMAIL_TAKEN) when the login cannot be used. */
export const checkLogin = (body: { login: string; name: string }) => apiPost<CheckLoginResponse>('/check-login', body);
