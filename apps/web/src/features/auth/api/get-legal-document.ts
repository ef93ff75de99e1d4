import type { Language } from '@cellport/shared/constants';
import type { LegalDocument, LegalDocumentKind } from '@cellport/shared/schemas/legal';
import { apiGet } from '../../../lib/api';

/** GET /api/v1/legal/:kind?language= — the latest Terms of Service or Refund Policy in a language. */
export const getLegalDocument = (kind: LegalDocumentKind, language: Language) =>
  apiGet<LegalDocument>(`/legal/${kind}?language=${language}`);
