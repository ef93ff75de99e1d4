import * as z from 'zod/mini';
import { text } from './text.js';
import { LANGUAGES, NAME_MIN, PASSWORD_MAX, PASSWORD_MIN, PURPOSE_MIN } from '../constants.js';
import { MESSAGES } from './auth-messages.js';

// Validation rules of spec §5 with their exact messages. The web forms and the server use these same schemas.
// Written with zod/mini so the browser bundle carries only the checks it uses (docs/decisions/002).

export * from './auth-messages.js';

const trimmedText = (max: number) => text().check(z.trim(), z.maxLength(max));
const optionalText = (max: number) => z._default(trimmedText(max), '');

/**
 * Something@domain with a dot in the domain (not its first character) and two characters after that dot. Written so
 * it cannot backtrack (issue 26): the local part and the run up to the domain's first dot exclude the very character
 * that ends them, so every character has one reading; the old `[^\s@]+\.[^\s@]{2,}` let the dot fall anywhere in a
 * run of dots, which is quadratic.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@][^\s@.]*\.[^\s@]{2,}$/;
export const nameSchema = text().check(z.trim(), z.minLength(NAME_MIN, MESSAGES.name), z.maxLength(100, MESSAGES.name));
export const loginSchema = text().check(
  z.trim(),
  z.toLowerCase(),
  z.minLength(1, MESSAGES.required),
  // abort: zod runs every check otherwise, and the pattern must never see a long input.
  z.maxLength(254, { message: MESSAGES.login, abort: true }),
  z.regex(EMAIL_PATTERN, MESSAGES.login),
);

// Checked in the spec's order; `abort` makes the first failing rule the only message.
const rule = (ok: (v: string) => boolean, message: string) => z.refine<string>(ok, { message, abort: true });
/**
 * Letters, digits and symbols are judged by Unicode (issue 27), so "Пароль12!" or "Κωδικός1!" passes in any language:
 * upper and lower case are \p{Lu} and \p{Ll}, a digit is \p{Nd}, and a symbol is anything that is neither a letter
 * (with its combining marks, \p{M}, so Devanagari vowel signs are not symbols), nor a digit, nor whitespace. Length
 * counts characters (code points), not UTF-16 units, so "𠀀" is one character as the spec's "8-16 Characters" means.
 */
const UPPERCASE = /\p{Lu}/u;
const LOWERCASE = /\p{Ll}/u;
const DIGIT = /\p{Nd}/u;
const SYMBOL = /[^\p{L}\p{M}\p{Nd}\s]/u;
const characterCount = (v: string) => [...v].length;
export const passwordSchema = text().check(
  rule((v) => !/\s/.test(v), MESSAGES.passwordWhitespace),
  rule((v) => UPPERCASE.test(v), MESSAGES.passwordUppercase),
  rule((v) => LOWERCASE.test(v), MESSAGES.passwordLowercase),
  rule((v) => DIGIT.test(v), MESSAGES.passwordDigit),
  rule((v) => SYMBOL.test(v), MESSAGES.passwordSymbol),
  rule((v) => characterCount(v) >= PASSWORD_MIN && characterCount(v) <= PASSWORD_MAX, MESSAGES.passwordLength),
);

export const purposeSchema = text().check(z.trim(), z.minLength(PURPOSE_MIN, MESSAGES.purpose), z.maxLength(2000));
export const languageSchema = z.enum(LANGUAGES);
// Spaces anywhere are dropped: apps show and copy the code as "123 456" (issue 27).
export const totpCode = text().check(z.overwrite((v) => v.replace(/\s+/g, '')), z.regex(/^\d{6}$/, MESSAGES.code));
/**
 * A two-factor recovery code as printed, 'abcde-fghjk' (issue 27, item 5): case, spaces and hyphens are ignored.
 * Ten characters, so never mistaken for a six-digit TOTP code.
 */
export const recoveryCode = text().check(
  z.overwrite((v) => v.toLowerCase().replace(/[\s-]+/g, '')), z.regex(/^[a-z0-9]{10}$/, MESSAGES.recoveryCode),
);
/** The second factor where either is accepted (sign-in, turning two-factor off): an app's code or a recovery code. */
export const secondFactorCode = text().check(
  z.overwrite((v) => v.replace(/\s+/g, '')),
  z.refine((v) => /^\d{6}$/.test(v) || /^[a-z0-9]{10}$/i.test(v.replace(/-/g, '')), MESSAGES.code),
);

/** Sign-up step 1: Account Information. */
export const signUpAccountSchema = z.object({
  name: nameSchema,
  company_name: optionalText(200),
  login: loginSchema,
  password: passwordSchema,
});
/** Sign-up step 2: Proxy Usage Information. */
export const signUpUsageSchema = z.object({
  purpose: purposeSchema,
  website_wishlist: optionalText(2000),
});
/** Sign-up step 3: Terms of Service; both boxes are required. */
export const signUpTermsSchema = z.object({
  terms: z.literal(true, MESSAGES.terms),
  marketing: z.literal(true, MESSAGES.marketing),
});

export const signUpRequestSchema = z.object({
  ...signUpAccountSchema.shape,
  ...signUpUsageSchema.shape,
  inviteLinkToken: optionalText(200),
  language: z._default(languageSchema, 'en'),
  marketing: z._default(z.boolean(), true),
});
export type SignUpRequest = z.input<typeof signUpRequestSchema>;

export const checkLoginRequestSchema = z.object({ login: loginSchema, name: nameSchema });
/** POST /api/v1/check-login: the login and name are free (otherwise an error answer). */
export const checkLoginResponseSchema = z.object({ error: z.null() });
export type CheckLoginResponse = z.infer<typeof checkLoginResponseSchema>;
/** POST /api/v1/signup: the address the confirmation e-mail went to. */
export const signUpResponseSchema = z.object({ error: z.null(), email: z.string() });
export type SignUpResponse = z.infer<typeof signUpResponseSchema>;
/** GET /api/v1/verify-email/:token, the link of the confirmation e-mail. */
export const verifyEmailParamsSchema = z.object({ token: z.string() });

export const credentialsSchema = z.object({
  login: loginSchema,
  password: text().check(z.minLength(1, MESSAGES.required), z.maxLength(200)),
  // A six-digit TOTP code ('123 456' too) or a recovery code ('abcde-fghjk').
  code: optionalText(24),
});
export type Credentials = z.input<typeof credentialsSchema>;

export const loginResponseSchema = z.object({
  error: z.nullable(text()),
  isActive: z.boolean(),
  isVerified: z.boolean(),
  use2fa: z.boolean(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;
/** What POST /check-credentials answers (HTTP 200, or 404 for an unknown login): the spec's fields plus the error code. */
export const checkCredentialsResponseSchema = z.object({
  ...loginResponseSchema.shape,
  code: z.nullable(text()),
  /** When a recovery code was given in place of the app's code: how many unused ones will be left once it is used. */
  recoveryCodesLeft: z.optional(z.number()),
});
export type CheckCredentialsResponse = z.infer<typeof checkCredentialsResponseSchema>;

export const signInFormSchema = z.object({ ...credentialsSchema.shape, redirect: optionalText(2000) });

export const emailRequestSchema = z.object({ login: loginSchema, language: z._default(languageSchema, 'en') });
export const resetRequestFormSchema = z.object({ login: loginSchema });

export const changePasswordSchema = z.object({
  token: text().check(z.minLength(10), z.maxLength(200)),
  password: passwordSchema,
  /** Also revoke every API key and unlink Telegram (issue 26): on unless the customer unticks it. */
  revokeAccess: z._default(z.boolean(), true),
});
/** GET /api/v1/reset-password/:token: whether a reset link can still set a password. */
export const resetLinkParamsSchema = z.object({ token: text().check(z.minLength(10), z.maxLength(200)) });
const sameTwice = <T extends { password: string; repeat: string }>() =>
  z.refine<T>((v) => v.password === v.repeat, { message: MESSAGES.passwordsDiffer, path: ['repeat'] });
export const resetPasswordFormSchema = z.object({ password: passwordSchema, repeat: text() })
  .check(sameTwice());

export const captchaVerifySchema = z.object({ 'g-recaptcha-response': text().check(z.minLength(1), z.maxLength(10_000)) });
/** GET /api/v1/captcha/challenge: an ALTCHA proof-of-work challenge. */
export const captchaChallengeSchema = z.object({
  algorithm: z.string(), challenge: z.string(), maxnumber: z.number(), salt: z.string(), signature: z.string(),
});
export type CaptchaChallenge = z.infer<typeof captchaChallengeSchema>;
export const captchaConfigSchema = z.object({
  provider: z.enum(['altcha', 'recaptcha', 'off']),
  siteKey: z.nullable(text()),
  /** Whether this browser already passed the captcha (it is asked once). */
  passed: z.boolean(),
});

export const totpCodeSchema = z.object({ code: totpCode });
export const recoveryCodeSchema = z.object({ code: recoveryCode });
export const secondFactorSchema = z.object({ code: secondFactorCode });
export const profileSchema = z.object({
  name: nameSchema,
  company_name: optionalText(200),
  // Printed on invoices (issue 27, item 3): the customer's billing address and VAT (or other tax) number.
  billing_address: optionalText(500),
  vat_number: optionalText(40),
});
export const accountPasswordSchema = z.object({
  current: text().check(z.minLength(1, MESSAGES.required), z.maxLength(200)),
  password: passwordSchema,
  repeat: text(),
}).check(sameTwice());

export const okSchema = z.object({ success: z.boolean() });
export const errorResponseSchema = z.object({ error: text(), code: text() });
