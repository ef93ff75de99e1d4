import { MESSAGES } from '@cellport/shared/schemas/auth';
import { describe, expect, it } from 'vitest';
import { validateSignIn } from './sign-in-validation';

describe('validateSignIn', () => {
  it('needs an e-mail login and a password', () => {
    expect(validateSignIn({ login: 'ann', password: '', code: '' }, false))
      .toEqual({ ok: false, errors: { login: MESSAGES.login, password: MESSAGES.required } });
  });

  it('ignores the code until the code step, then needs 6 digits', () => {
    const values = { login: 'Ann@Example.com', password: 'x', code: '12' };
    expect(validateSignIn(values, false)).toEqual({ ok: true, data: { login: 'ann@example.com', password: 'x', code: '' } });
    expect(validateSignIn(values, true)).toEqual({ ok: false, errors: { code: MESSAGES.code } });
    expect(validateSignIn({ ...values, code: '123456' }, true))
      .toEqual({ ok: true, data: { login: 'ann@example.com', password: 'x', code: '123456' } });
  });
});
