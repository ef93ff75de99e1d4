import { AUTH_ERRORS as AUTH } from '@cellport/shared/errors/auth';
import { COMMON_ERRORS as COMMON } from '@cellport/shared/errors/common';

/** What POST /check-credentials answered: its HTTP status (spec §7: "response status is added") and body. */
export interface CredentialsAnswer {
  status: number;
  body: {
    error?: string | null;
    code?: string;
    isActive?: boolean;
    isVerified?: boolean;
    use2fa?: boolean;
    /** Set when a recovery code was given: how many will be left once it is used. */
    recoveryCodesLeft?: number;
  } | null;
}

export type SignInOutcome =
  | { kind: 'submit' }
  | { kind: 'code-step' }
  | { kind: 'confirm-email' }
  | { kind: 'error'; code: string | null; message: string };

const error = (code: string | null, message: string): SignInOutcome => ({ kind: 'error', code, message });

/**
 * The client side of spec §4 "Login" and §8, in the spec's order: 404 → 'Account not found!'; deactivated →
 * 'Your account deactivated by admin!'; not verified → the confirm-email page; two-factor without a code yet →
 * the code step; any other server error → shown under the form; otherwise the native sign-in post.
 */
export function signInOutcome({ status, body }: CredentialsAnswer, hasCode: boolean): SignInOutcome {
  if (status === 404) return error('ACCOUNT_NOT_FOUND', AUTH.ACCOUNT_NOT_FOUND);
  if (body?.isActive === false) return error('ACCOUNT_DEACTIVATED', AUTH.ACCOUNT_DEACTIVATED);
  if (body?.isVerified === false || body?.error === AUTH.EMAIL_NOT_VERIFIED) return { kind: 'confirm-email' };
  if (body?.use2fa === true && !hasCode) return { kind: 'code-step' };
  if (body?.error) return error(body.code ?? null, body.error);
  if (status >= 400) return error(body?.code ?? 'INTERNAL', COMMON.INTERNAL);
  return { kind: 'submit' };
}
