import * as z from 'zod/mini';

// The signed-in customer's own account (GET/PATCH /api/v1/me, two-factor, sessions). The request bodies
// (profileSchema, accountPasswordSchema, totpCodeSchema) are in auth.ts with the other form rules of spec §5.

/** GET /api/v1/me, and the answer of PATCH /me and of enabling or disabling two-factor. */
export const meSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  company_name: z.string(),
  /** Printed on invoices with the company (issue 27, item 3); '' when not given. */
  billing_address: z.string(),
  vat_number: z.string(),
  language: z.string(),
  use2fa: z.boolean(),
  /** Unused two-factor recovery codes (0 while two-factor is off). */
  recoveryCodesLeft: z.number(),
  isVerified: z.boolean(),
  role: z.enum(['customer', 'admin']),
});
export type Me = z.infer<typeof meSchema>;

/** One signed-in session of the customer (GET /api/v1/me/sessions). */
export const sessionSchema = z.object({
  id: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionSchema>;
export const sessionsResponseSchema = z.array(sessionSchema);

/** DELETE /api/v1/me/sessions/:id. Session ids are sha256 hex digests of the cookie token. */
export const sessionParamsSchema = z.object({ id: z.string().check(z.regex(/^[0-9a-f]{64}$/)) });

/** POST /api/v1/me/2fa/setup: the pending secret, its otpauth:// URL and that URL as a QR code (SVG). */
export const twoFactorSetupSchema = z.object({ secret: z.string(), otpauthUrl: z.string(), qrSvg: z.string() });
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

/**
 * Two-factor recovery codes (issue 27, item 5), as shown the one time they exist: in the answer of POST
 * /me/2fa/enable (with the user) and of POST /me/2fa/recovery-codes (a new set; the old one stops working).
 */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;
export const twoFactorEnabledSchema = z.object({ ...meSchema.shape, ...recoveryCodesSchema.shape });
export type TwoFactorEnabled = z.infer<typeof twoFactorEnabledSchema>;
/** POST /me/2fa/recovery-codes: proven with the current password or a code from the app. */
export const regenerateRecoveryCodesSchema = z.object({
  password: z.optional(z.string().check(z.maxLength(200))),
  code: z.optional(z.string().check(z.maxLength(24))),
});

/**
 * POST /api/v1/me/sessions/revoke-all (issue 26, item 9): sign out everywhere, this browser included; with
 * `revokeAccess` (the default) also revoke every API key and unlink Telegram, so nothing of the account stays open.
 */
export const signOutEverywhereSchema = z.object({ revokeAccess: z.optional(z.boolean()) });
export type SignOutEverywhere = z.infer<typeof signOutEverywhereSchema>;
