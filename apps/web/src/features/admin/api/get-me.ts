import type { Me } from '@cellport/shared/schemas/account';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';
import { ADMIN_ME_KEY } from '../admin-query-client';

/** GET /api/v1/me: the console's guard reads `role`. Its own key, so the console does not share the shell's cache. */
export const useAdminMe = () => useQuery({ queryKey: [ADMIN_ME_KEY], queryFn: () => apiGet<Me>('/me'), staleTime: 60_000 });
