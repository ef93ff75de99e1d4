import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  MESSAGES, credentialsSchema, loginSchema, nameSchema, passwordSchema, purposeSchema, resetPasswordFormSchema,
  signUpRequestSchema, signUpTermsSchema,
} from './auth.js';

const firstMessage = (schema: z.ZodMiniType, value: unknown) => {
  const r = z.safeParse(schema, value);
  return r.success ? null : r.error.issues[0]?.message;
};

describe('spec §5 validation rules', () => {
  it('name: at least 3 characters', () => {
    expect(firstMessage(nameSchema, 'Al')).toBe(MESSAGES.name);
    expect(firstMessage(nameSchema, '  Al  ')).toBe(MESSAGES.name);
    expect(firstMessage(nameSchema, 'Ann')).toBeNull();
  });

  it('login: must look like an e-mail, and is lower-cased', () => {
    for (const bad of ['x', 'a@b', 'a b@c.de', '@example.com']) expect(firstMessage(loginSchema, bad)).toBe(MESSAGES.login);
    expect(firstMessage(loginSchema, '')).toBe(MESSAGES.required);
    expect(z.parse(loginSchema, ' Ann@Example.COM ')).toBe('ann@example.com');
  });

  it.each([
    ['Has Space1!', MESSAGES.passwordWhitespace],
    ['lowercase1!', MESSAGES.passwordUppercase],
    ['UPPERCASE1!', MESSAGES.passwordLowercase],
    ['NoDigits!!', MESSAGES.passwordDigit],
    ['NoSymbol12', MESSAGES.passwordSymbol],
    ['Sh0rt!', MESSAGES.passwordLength],
    ['Much7oo!LongPassword', MESSAGES.passwordLength],
  ])('password %j → %s', (password, message) => {
    expect(firstMessage(passwordSchema, password)).toBe(message);
  });

  it('password rules are checked in the spec order: whitespace first, length last', () => {
    expect(firstMessage(passwordSchema, 'a b')).toBe(MESSAGES.passwordWhitespace);
    expect(firstMessage(passwordSchema, 'ab')).toBe(MESSAGES.passwordUppercase);
    expect(firstMessage(passwordSchema, 'Valid#Pass1')).toBeNull();
    expect(firstMessage(passwordSchema, 'Aa1!aaaa')).toBeNull();
    expect(firstMessage(passwordSchema, 'Aa1!aaaaaaaaaaaa')).toBeNull();
  });

  it('purpose: at least 20 characters, with the spec wording (two spaces)', () => {
    expect(MESSAGES.purpose).toBe('Purpose  must be at least 20 characters long');
    expect(firstMessage(purposeSchema, 'too short')).toBe(MESSAGES.purpose);
    expect(firstMessage(purposeSchema, 'Price monitoring for my shop')).toBeNull();
  });

  it('terms: both boxes must be ticked', () => {
    expect(firstMessage(signUpTermsSchema, { terms: true, marketing: false })).toBe(MESSAGES.marketing);
    expect(firstMessage(signUpTermsSchema, { terms: false, marketing: true })).toBe(MESSAGES.terms);
    expect(firstMessage(signUpTermsSchema, { terms: true, marketing: true })).toBeNull();
  });

  it('password case, digits and symbols are judged by Unicode: Cyrillic, Greek and CJK passwords pass (issue 27)', () => {
    for (const ok of ['Пароль12!', 'Κωδικός1!', 'Äpfelß12#', 'Пароль12№', '密码Ab12!x', 'Пароль१२!']) {
      expect(firstMessage(passwordSchema, ok), ok).toBeNull();
    }
    expect(firstMessage(passwordSchema, 'пароль12!')).toBe(MESSAGES.passwordUppercase);
    expect(firstMessage(passwordSchema, 'ΚΩΔΙΚΟΣ1!')).toBe(MESSAGES.passwordLowercase);
    expect(firstMessage(passwordSchema, 'Пароль!!')).toBe(MESSAGES.passwordDigit);
    // A letter of any script is not a symbol: CJK ideographs and Cyrillic letters do not stand in for one.
    expect(firstMessage(passwordSchema, 'Пароль12')).toBe(MESSAGES.passwordSymbol);
    expect(firstMessage(passwordSchema, '密码密码Ab12')).toBe(MESSAGES.passwordSymbol);
    // Length counts characters: eight CJK-extension-B ideographs are 16 UTF-16 units but 8 characters.
    expect(firstMessage(passwordSchema, 'Aa1!𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀')).toBeNull();
    expect(firstMessage(passwordSchema, 'Aa1!𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀𠀀')).toBe(MESSAGES.passwordLength);
  });

  it('reset password: the two entries must match', () => {
    expect(firstMessage(resetPasswordFormSchema, { password: 'Valid#Pass1', repeat: 'Valid#Pass2' })).toBe(MESSAGES.passwordsDiffer);
    expect(firstMessage(resetPasswordFormSchema, { password: 'Valid#Pass1', repeat: 'Valid#Pass1' })).toBeNull();
  });

  it('e-mail inputs are required', () => {
    expect(firstMessage(credentialsSchema, { login: '', password: 'x' })).toBe(MESSAGES.required);
  });

  it('registration payload carries defaults for optional fields', () => {
    const parsed = z.parse(signUpRequestSchema, {
      name: 'Ann', login: 'ann@example.com', password: 'Valid#Pass1', purpose: 'Price monitoring for my shop',
    });
    expect(parsed).toMatchObject({ company_name: '', website_wishlist: '', inviteLinkToken: '', language: 'en' });
  });
});
