import * as z from 'zod/mini';
import { text } from '../text.js';
import { bigintId, isoDate, pageOf, pageQueryFields, searchField, uuid } from './common.js';

// Operator console, Audit log. Conventions and building blocks: common.ts.

// ---- audit: GET /admin/audit --------------------------------------------------------------------------------------

/** q matches the action, target id, admin e-mail and the before/after text; from/to are dates (to inclusive). */
export const auditQuerySchema = z.object({
  q: searchField,
  action: z.optional(text().check(z.maxLength(100))),
  admin_id: z.optional(uuid),
  target_type: z.optional(text().check(z.maxLength(50))),
  target_id: z.optional(text().check(z.maxLength(100))),
  from: z.optional(z.iso.date()),
  to: z.optional(z.iso.date()),
  ...pageQueryFields,
});
export const auditEntrySchema = z.object({
  id: bigintId,
  adminId: z.nullable(uuid),
  adminEmail: z.nullable(text()),
  /** Dotted verb, e.g. 'customer.deactivate', 'modem.create', 'payment.refund'. */
  action: text(),
  targetType: text(),
  targetId: z.nullable(text()),
  /** Redacted: password hashes, TOTP secrets and tokens read "[redacted]". */
  before: z.nullable(z.unknown()),
  after: z.nullable(z.unknown()),
  ip: text(),
  createdAt: isoDate,
});
export const auditResponseSchema = pageOf(auditEntrySchema);
export type AuditQuery = z.infer<typeof auditQuerySchema>;
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export type AuditResponse = z.infer<typeof auditResponseSchema>;
