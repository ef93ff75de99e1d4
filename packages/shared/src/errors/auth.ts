// Accounts, sign-in and account settings. Spec §8 wording where the spec has it.
export const AUTH_ERRORS = {
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
  RESET_LINK_USED: 'This reset link can no longer be used: the password was already changed with it or with a newer link. Request a new one.',
  RESET_LINK_EXPIRED: 'This reset link has expired. Request a new one.',
  TWO_FACTOR_ALREADY_ON: 'Two-factor authentication is already on',
  TWO_FACTOR_NOT_SETUP: 'Start two-factor setup first',
  WRONG_CURRENT_PASSWORD: 'Current password is wrong',
  INVALID_INVITE: 'This invitation link is invalid',
} as const;
