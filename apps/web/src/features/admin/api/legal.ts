import { useQuery } from '@tanstack/react-query';
import type { Language } from '@cellport/shared/constants';
import type { AdminLegalPublishRequest, AdminLegalVersion, AdminLegalVersionsResponse } from '@cellport/shared/schemas/admin/legal';
import type { LegalDocumentKind } from '@cellport/shared/schemas/legal';
import { ADMIN_KEY, adminGet, adminPost } from './admin-client';

/** GET /admin/legal/:kind/:language — every version, newest first. */
export const useLegalVersions = (kind: LegalDocumentKind, language: Language) =>
  useQuery({ queryKey: [ADMIN_KEY, 'legal', kind, language], queryFn: () => adminGet<AdminLegalVersionsResponse>(`/legal/${kind}/${language}`) });

/** POST /admin/legal/:kind/:language — publishes the text as the next version. */
export const publishLegal = ({ kind, language, ...body }: AdminLegalPublishRequest & { kind: LegalDocumentKind; language: Language }) =>
  adminPost<{ version: AdminLegalVersion }>(`/legal/${kind}/${language}`, body);
