import * as z from 'zod/mini';
import { LANGUAGES } from '../constants.js';

// The Terms of Service and the Refund Policy (issue 14, item 8): public pages /{language}/terms and
// /{language}/refund-policy, one Markdown text per language, edited and versioned in the operator console.

export const LEGAL_DOCUMENT_KINDS = ['terms', 'refund-policy'] as const;
export type LegalDocumentKind = (typeof LEGAL_DOCUMENT_KINDS)[number];
export const legalDocumentKindSchema = z.enum(LEGAL_DOCUMENT_KINDS);
/** A document's Markdown may be this long (characters). */
export const LEGAL_BODY_MAX = 100_000;

/** GET /api/v1/legal/:kind?language=xx */
export const legalDocumentParamsSchema = z.object({ kind: legalDocumentKindSchema });
export const legalDocumentQuerySchema = z.object({ language: z._default(z.enum(LANGUAGES), 'en') });
/** The latest version of one document in one language: its Markdown, number and date. */
export const legalDocumentSchema = z.object({
  kind: legalDocumentKindSchema,
  language: z.enum(LANGUAGES),
  version: z.number(),
  body: z.string(),
  publishedAt: z.string(),
});
export type LegalDocument = z.infer<typeof legalDocumentSchema>;

/** A version a customer accepted at sign-up (the console's customer detail shows them). */
export const legalAcceptanceSchema = z.object({
  kind: legalDocumentKindSchema,
  language: z.enum(LANGUAGES),
  version: z.number(),
  acceptedAt: z.string(),
});
export type LegalAcceptance = z.infer<typeof legalAcceptanceSchema>;
