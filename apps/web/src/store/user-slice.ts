import type { Me } from '@cellport/shared/schemas/account';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet } from '../lib/api';

/** The signed-in user (GET /api/v1/me), whose one home is the query cache (decision 020). The shell's guard runs
 * the first load; pages read the cached copy. */
export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: () => apiGet<Me>('/me'),
  staleTime: 60_000,
});

/** Spec §3 "User": name and isAuthenticated, derived from the cached GET /api/v1/me. */
export interface UserState {
  user: { me: Me | null; isAuthenticated: boolean };
  setUser: (me: Me | null) => void;
}

const userOf = (me: Me | null | undefined): UserState['user'] => ({ me: me ?? null, isAuthenticated: Boolean(me) });

export function userStore(client: QueryClient): UserState {
  return {
    get user() { return userOf(client.getQueryData<Me | null>([...meQuery.queryKey])); },
    setUser: (me) => { client.setQueryData<Me | null>([...meQuery.queryKey], me); },
  };
}

/** The user as the shell's pages read it (the guard has loaded it before any page renders). */
export const useUser = (): UserState['user'] => userOf(useQuery(meQuery).data);
