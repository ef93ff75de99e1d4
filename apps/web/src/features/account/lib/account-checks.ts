import { accountPasswordSchema, profileSchema, secondFactorSchema, totpCodeSchema } from '@cellport/shared/schemas/auth';
import * as z from 'zod/mini';

// The Account page's form checks with the server's own schemas. They and zod load on the first focus in a form (or on
// submit), not with the page (load-account-checks.ts; issue 31, item 4).

export const checkPassword = (values: { current: string; password: string; repeat: string }) =>
  z.safeParse(accountPasswordSchema, values);

export const checkProfile = (values: { name: string; company_name: string; billing_address: string; vat_number: string }) =>
  z.safeParse(profileSchema, values);

/** Turning two-factor on takes the app's code; turning it off a recovery code too (the phone may be what was lost). */
export const checkTwoFactorCode = (action: 'enable' | 'disable', code: string) =>
  z.safeParse(action === 'enable' ? totpCodeSchema : secondFactorSchema, { code });
