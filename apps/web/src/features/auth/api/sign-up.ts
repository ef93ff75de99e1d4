import type { SignUpRequest, SignUpResponse } from '@cellport/shared/schemas/auth';
import { apiPost } from '../../../lib/api';

/** Registers the account; the answer carries the e-mail to confirm. */
export const signUp = (body: SignUpRequest) => apiPost<SignUpResponse>('/signup', body);
