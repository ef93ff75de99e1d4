// The English messages of spec §5's validation rules (auth.ts' schemas carry them; validation.json translates them
// by key): plain values, no zod, so a page that only translates a message does not load the schemas and zod (issue
// 31, item 4).

export const MESSAGES = {
  name: 'Name must be at least 3 characters long',
  login: 'Login is not email address!',
  required: 'This field is required',
  passwordWhitespace: 'Password must not contain Whitespaces.',
  passwordUppercase: 'Password must have at least one Uppercase Character.',
  passwordLowercase: 'Password must have at least one Lowercase Character.',
  passwordDigit: 'Password must contain at least one Digit.',
  passwordSymbol: 'Password must contain at least one Special Symbol.',
  passwordLength: 'Password must be 8-16 Characters Long.',
  purpose: 'Purpose  must be at least 20 characters long',
  passwordsDiffer: 'Password not equal',
  terms: 'Please accept the terms and the refund policy',
  marketing: 'Please agree to receive e-mails from us',
  code: 'The code has 6 digits',
  recoveryCode: 'A recovery code has 10 letters and digits',
} as const;
export type ValidationMessage = (typeof MESSAGES)[keyof typeof MESSAGES];
