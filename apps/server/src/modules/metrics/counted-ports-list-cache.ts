import type { Language } from '@cellport/shared';
import type { Port } from '@cellport/shared/schemas/catalog';
import { PortsListCache, type PortsListCacheOptions } from '../ports/index.js';
import type { DatabaseHandle } from '../../db/database.js';
import type { ServerMetrics } from './server-metrics.js';

/** The only route that reads the kept lists (ports.routes.ts); the poll cache counters are labelled by route. */
const ROUTE = '/api/v1/modems';

/**
 * The ports list cache, counting each listing as a hit (kept JSON served) or a miss (loaded from the database).
 * A miss is seen from outside: the cache calls `load` only when it has nothing fresh to serve.
 */
export class CountedPortsListCache extends PortsListCache {
  constructor(database: DatabaseHandle, private readonly metrics: ServerMetrics, options: PortsListCacheOptions = {}) {
    super(database, options);
  }

  override async json(userId: string, lng: Language, load: () => Promise<Port[]>): Promise<string> {
    let loaded = false;
    const json = await super.json(userId, lng, () => { loaded = true; return load(); });
    this.metrics.pollServed('ports_list', ROUTE, !loaded);
    return json;
  }
}
