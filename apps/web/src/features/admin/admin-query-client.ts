import { QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api';

export const ADMIN_ME_KEY = 'admin-me';

/**
 * The console's own QueryClient (the customer shell is never loaded here). 4xx answers are not retried; a 401 from
 * any query means the session ended while the page was open, so `onUnauthorized` sends the operator to sign-in.
 */
export function createAdminQueryClient(onUnauthorized: () => void): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      // The guard's own GET /me answers a visitor with a client-side redirect; a second, full-page one would race it.
      onError: (error, query) => {
        if (error instanceof ApiError && error.status === 401 && query.queryKey[0] !== ADMIN_ME_KEY) onUnauthorized();
      },
    }),
    defaultOptions: {
      queries: {
        retry: (failures, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
        refetchOnWindowFocus: false,
        staleTime: 10_000,
      },
      mutations: { retry: false },
    },
  });
}

/** Sign-in in the current language, coming back to this page afterwards. */
export function signInUrl(language: string): string {
  return `/${language}/sign-in?redirect=${encodeURIComponent(`${location.pathname}${location.search}`)}`;
}
