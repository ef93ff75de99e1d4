import { QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api';

/**
 * The shell's QueryClient. 4xx answers are not retried (they will not change); a 401 from any query means the
 * session ended while the page was open, so `onUnauthorized` sends the visitor to sign-in.
 */
export function createShellQueryClient(onUnauthorized: () => void): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => { if (error instanceof ApiError && error.status === 401) onUnauthorized(); },
    }),
    defaultOptions: {
      queries: {
        retry: (failures, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
}

/** Where a signed-out visitor goes: sign-in in the current language, coming back to this page afterwards. */
export function signInUrl(language: string): string {
  const back = `${location.pathname}${location.search}`;
  return `/${language}/sign-in?redirect=${encodeURIComponent(back)}`;
}
