import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditQuery, AuditResponse } from '@cellport/shared/schemas/admin/audit';
import { ADMIN_KEY, adminGet, toQuery } from './admin-client';

export const useAudit = (query: AuditQuery) =>
  useQuery({
    queryKey: [ADMIN_KEY, 'audit', query],
    queryFn: () => adminGet<AuditResponse>(`/audit${toQuery(query)}`),
    placeholderData: keepPreviousData,
  });
