import { MESSAGES, resetPasswordFormSchema, signUpAccountSchema, signUpTermsSchema } from '@cellport/shared/schemas/auth';
import { describe, expect, it } from 'vitest';
import { isClean, validateFields } from './field-errors';

describe('validateFields', () => {
  it('keeps only the first message of each field', () => {
    const result = validateFields(signUpAccountSchema, { name: 'Al', company_name: '', login: 'nope', password: 'a b' });
    expect(result).toEqual({
      ok: false,
      errors: { name: MESSAGES.name, login: MESSAGES.login, password: MESSAGES.passwordWhitespace },
    });
  });

  it('returns the parsed data when the values pass', () => {
    const result = validateFields(signUpAccountSchema, { name: ' Ann ', login: 'Ann@Example.com', password: 'Secret12!' });
    expect(result).toEqual({ ok: true, data: { name: 'Ann', company_name: '', login: 'ann@example.com', password: 'Secret12!' } });
  });

  it('files refinements with a path under that field (repeat password)', () => {
    const result = validateFields(resetPasswordFormSchema, { password: 'Secret12!', repeat: 'Secret12?' });
    expect(result).toEqual({ ok: false, errors: { repeat: MESSAGES.passwordsDiffer } });
  });

  it('reports each unticked box of the terms step', () => {
    const result = validateFields(signUpTermsSchema, { terms: true, marketing: false });
    expect(result).toEqual({ ok: false, errors: { marketing: MESSAGES.marketing } });
  });
});

describe('isClean', () => {
  it('is true only when no field has a message', () => {
    expect(isClean({})).toBe(true);
    expect(isClean({ name: undefined, login: '' })).toBe(true);
    expect(isClean({ name: MESSAGES.name })).toBe(false);
  });
});
