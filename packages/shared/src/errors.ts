// Error codes the server answers with ({error, code}). The English message is the spec's wording (§8) and
// the default; clients translate by code through the `errors` locale namespace.
export const ERRORS = {
  VALIDATION: 'Invalid request',
  UNAUTHORIZED: 'Please sign in to continue',
  FORBIDDEN: 'You are not allowed to do this',
  CSRF: 'This request came from another site and was refused',
  NOT_FOUND: 'Not found',
  RATE_LIMITED: 'Too many attempts. Please wait a minute and try again.',
  INTERNAL: 'Something went wrong on our side. Please try again in a moment.',
  ACCOUNT_NOT_FOUND: 'Account not found!',
  ACCOUNT_DEACTIVATED: 'Your account deactivated by admin!',
  EMAIL_NOT_VERIFIED: 'Email not verified',
  EMAIL_TAKEN: 'An account with this e-mail already exists',
  WRONG_PASSWORD: 'Wrong login or password',
  CODE_REQUIRED: 'Enter the code from your authenticator app',
  WRONG_CODE: 'The code is wrong or was already used',
  CAPTCHA_REQUIRED: 'Please complete the captcha first',
  CAPTCHA_FAILED: 'Captcha check failed. Please try again.',
  TOKEN_INVALID: 'This link is invalid or has expired',
  TWO_FACTOR_ALREADY_ON: 'Two-factor authentication is already on',
  TWO_FACTOR_NOT_SETUP: 'Start two-factor setup first',
  WRONG_CURRENT_PASSWORD: 'Current password is wrong',
  INVALID_INVITE: 'This invitation link is invalid',
} as const;
export type ErrorCode = keyof typeof ERRORS;
export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.hasOwn(ERRORS, value);
