import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';
import type { Me } from '../../../store/user-slice';

export const meQueryKey = ['me'] as const;
export const getMe = () => apiGet<Me>('/me');

/** The signed-in user (GET /api/v1/me). The shell's guard runs the first load; pages read the cached copy. */
export const useMe = () => useQuery({ queryKey: meQueryKey, queryFn: getMe, staleTime: 60_000 });
