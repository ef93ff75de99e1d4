import { ERRORS } from '@cellport/shared/errors';
import { describe, expect, it } from 'vitest';
import { signInOutcome } from './sign-in-outcome';

const ok = { error: null, isActive: true, isVerified: true, use2fa: false };

describe('signInOutcome (spec §4 Login, §8)', () => {
  it('404 means the account does not exist, whatever the body says', () => {
    expect(signInOutcome({ status: 404, body: { ...ok, error: 'x' } }, false))
      .toEqual({ kind: 'error', code: 'ACCOUNT_NOT_FOUND', message: 'Account not found!' });
  });

  it('a deactivated account is refused before anything else', () => {
    expect(signInOutcome({ status: 200, body: { ...ok, isActive: false, isVerified: false, use2fa: true } }, false))
      .toEqual({ kind: 'error', code: 'ACCOUNT_DEACTIVATED', message: 'Your account deactivated by admin!' });
  });

  it('an unverified e-mail goes to the confirm-email page, by flag or by message', () => {
    expect(signInOutcome({ status: 200, body: { ...ok, isVerified: false } }, false)).toEqual({ kind: 'confirm-email' });
    expect(signInOutcome({ status: 403, body: { error: ERRORS.EMAIL_NOT_VERIFIED, code: 'EMAIL_NOT_VERIFIED' } }, false))
      .toEqual({ kind: 'confirm-email' });
  });

  it('two-factor accounts switch to the code step until a code is given', () => {
    expect(signInOutcome({ status: 200, body: { ...ok, use2fa: true } }, false)).toEqual({ kind: 'code-step' });
    expect(signInOutcome({ status: 200, body: { ...ok, use2fa: true } }, true)).toEqual({ kind: 'submit' });
  });

  it('a wrong code with a code given is an error, not the code step again', () => {
    const body = { ...ok, use2fa: true, error: ERRORS.WRONG_CODE, code: 'WRONG_CODE' };
    expect(signInOutcome({ status: 401, body }, true)).toEqual({ kind: 'error', code: 'WRONG_CODE', message: ERRORS.WRONG_CODE });
  });

  it('other server errors are shown with their code', () => {
    expect(signInOutcome({ status: 401, body: { ...ok, error: ERRORS.WRONG_PASSWORD, code: 'WRONG_PASSWORD' } }, false))
      .toEqual({ kind: 'error', code: 'WRONG_PASSWORD', message: ERRORS.WRONG_PASSWORD });
    expect(signInOutcome({ status: 429, body: { error: ERRORS.RATE_LIMITED, code: 'RATE_LIMITED' } }, false))
      .toEqual({ kind: 'error', code: 'RATE_LIMITED', message: ERRORS.RATE_LIMITED });
  });

  it('a failing status without a message is still an error', () => {
    expect(signInOutcome({ status: 500, body: null }, false)).toEqual({ kind: 'error', code: 'INTERNAL', message: ERRORS.INTERNAL });
  });

  it('a clean answer submits the native form', () => {
    expect(signInOutcome({ status: 200, body: ok }, false)).toEqual({ kind: 'submit' });
  });
});
