import * as z from 'zod/mini';
import { text } from '../text.js';
import { ADMIN_MESSAGES, isoDate, trimmedText, uuid } from './common.js';

// Operator console, Admins. Conventions and building blocks: common.ts.

// ---- admins: GET/POST /admin/admins, DELETE /admin/admins/:id -----------------------------------------------------

export const adminUserSchema = z.object({
  id: uuid, email: text(), name: text(), isActive: z.boolean(), uses2fa: z.boolean(), createdAt: isoDate,
});
export const adminsResponseSchema = z.object({ items: z.array(adminUserSchema) });
/** Promotes the account with this e-mail, or creates one (verified) with a generated password. */
export const createAdminRequestSchema = z.object({
  email: z.email(ADMIN_MESSAGES.email).check(z.maxLength(254)),
  name: z.optional(trimmedText(100)),
});
/** `password` is set only when a new account was created: shown once, never stored in clear. */
export const createAdminResponseSchema = z.object({
  admin: adminUserSchema, created: z.boolean(), password: z.nullable(text()),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export type AdminsResponse = z.infer<typeof adminsResponseSchema>;
export type CreateAdminRequest = z.input<typeof createAdminRequestSchema>;
export type CreateAdminResponse = z.infer<typeof createAdminResponseSchema>;
