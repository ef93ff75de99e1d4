import { useQuery } from '@tanstack/react-query';
import { meQuery } from '../../../store/user-slice';

export const meQueryKey = meQuery.queryKey;

/** The signed-in user (GET /api/v1/me, store/user-slice.ts). The shell's guard runs the first load. */
export const useMe = () => useQuery(meQuery);
