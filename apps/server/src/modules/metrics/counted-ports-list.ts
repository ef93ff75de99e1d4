import type { Language } from '@cellport/shared';
import type { Port } from '@cellport/shared/schemas/catalog';
import type { ServerMetrics } from './server-metrics.js';

/** The only route that reads the kept lists (ports.routes.ts); the poll cache counters are labelled by route. */
const ROUTE = '/api/v1/modems';

/** What the counting needs of the ports list cache (ports/ports-list-cache.ts): the one method that serves a list. */
export interface ServesPortsLists {
  json(userId: string, lng: Language, load: () => Promise<Port[]>): Promise<string>;
}

/**
 * The ports list cache, counting each listing as a hit (kept JSON served) or a miss (loaded from the database).
 * A miss is seen from outside: the cache calls `load` only when it has nothing fresh to serve. The cache is wrapped,
 * not subclassed, so metrics needs nothing of the ports module but this one method.
 */
export function countPortsListServes<Cache extends ServesPortsLists>(cache: Cache, metrics: ServerMetrics): Cache {
  const serve = cache.json.bind(cache);
  cache.json = async (userId, lng, load) => {
    let loaded = false;
    const json = await serve(userId, lng, () => { loaded = true; return load(); });
    metrics.pollServed('ports_list', ROUTE, !loaded);
    return json;
  };
  return cache;
}
