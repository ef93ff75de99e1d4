import * as z from 'zod/mini';
import { LANGUAGES } from '../../constants.js';
import { text } from '../text.js';
import { LEGAL_BODY_MAX, legalDocumentKindSchema } from '../legal.js';
import { isoDate, uuid } from './common.js';

// Operator console, Legal texts: the Terms of Service and the Refund Policy per language. Each save is a new
// version (number, time, author), recorded in the audit log; the public page shows the latest.

export const ADMIN_LEGAL_MESSAGES = {
  body: `Write the text in Markdown, 1 to ${LEGAL_BODY_MAX} characters`,
} as const;

export const adminLegalParamsSchema = z.object({ kind: legalDocumentKindSchema, language: z.enum(LANGUAGES) });
export type AdminLegalParams = z.infer<typeof adminLegalParamsSchema>;

export const adminLegalVersionSchema = z.object({
  version: z.number(),
  body: z.string(),
  createdAt: isoDate,
  /** The operator who saved it; null for the text a fresh install starts with. */
  authorId: z.nullable(uuid),
  authorEmail: z.nullable(text()),
});
export type AdminLegalVersion = z.infer<typeof adminLegalVersionSchema>;

/** GET /admin/legal/:kind/:language — every version, newest first (the first one is what customers see). */
export const adminLegalVersionsResponseSchema = z.object({ versions: z.array(adminLegalVersionSchema) });
export type AdminLegalVersionsResponse = z.infer<typeof adminLegalVersionsResponseSchema>;

/** POST /admin/legal/:kind/:language — publishes a new version. */
export const adminLegalPublishRequestSchema = z.object({
  body: text().check(
    z.trim(),
    z.minLength(1, ADMIN_LEGAL_MESSAGES.body),
    z.maxLength(LEGAL_BODY_MAX, ADMIN_LEGAL_MESSAGES.body),
  ),
});
export type AdminLegalPublishRequest = z.input<typeof adminLegalPublishRequestSchema>;
export const adminLegalPublishResponseSchema = z.object({ version: adminLegalVersionSchema });
