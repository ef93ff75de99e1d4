import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * A list the query cache holds, as the spec §4 store actions change it. `set` replaces it (the action "load");
 * `change` edits a list that is already cached and leaves an absent one alone, so an event that arrives before a
 * page first fetched the list never plants a partial list that the page would show instead of fetching.
 */
export function cachedList<T>(client: QueryClient, key: QueryKey) {
  return {
    get: (): T[] => client.getQueryData<T[]>(key) ?? [],
    set: (list: T[]) => { client.setQueryData<T[]>(key, [...list]); },
    change: (next: (list: T[]) => T[]) => { client.setQueryData<T[]>(key, (list) => (list ? next(list) : undefined)); },
  };
}
