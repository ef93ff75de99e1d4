import { sql } from 'kysely';
import type { Database, Tx } from '../../db/database.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import { AppError } from '../../lib/app-error.js';

/** A gateway as the console writes it (and its audit entries record it). */
export interface GatewayValues { name: string; public_host: string; link_url: string }
const COLUMNS = ['id', 'name', 'public_host', 'link_url'] as const;

/** A name or public host taken is an answer, not a 500. */
function rethrowDuplicate(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError('ALREADY_EXISTS');
  throw error;
}

/** The console's gateways: the list with each one's hosts, and add, edit, delete. */
export class GatewaysAdminRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * Every gateway by name with how many hosts are pinned to it and how many of those are linked now: the agent's last
   * report says up and the host was heard from within `offlineAfterSeconds`.
   */
  list(offlineAfterSeconds: number) {
    return this.db.selectFrom('gateways as g')
      .leftJoin('hosts as h', 'h.gateway_id', 'g.id')
      .leftJoin('host_gateway_links as l', 'l.host_id', 'h.id')
      .select(['g.id', 'g.name', 'g.public_host', 'g.link_url', 'g.created_at'])
      .select(sql<number>`count(h.id)::int`.as('host_count'))
      .select(sql<number>`(count(h.id) filter (where l.state = 'up'
        and h.last_seen_at > now() - make_interval(secs => ${sql.lit(offlineAfterSeconds)})))::int`.as('linked_count'))
      .groupBy(['g.id', 'g.name', 'g.public_host', 'g.link_url', 'g.created_at'])
      .orderBy('g.name').execute();
  }

  insert(tx: Tx, values: GatewayValues) {
    return tx.insertInto('gateways').values(values).returning(COLUMNS).executeTakeFirstOrThrow().catch(rethrowDuplicate);
  }

  /** The gateway, its row locked for the rest of the transaction; undefined when there is none. */
  lock(tx: Tx, id: string) {
    return tx.selectFrom('gateways').select(COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
  }

  update(tx: Tx, id: string, values: GatewayValues) {
    return tx.updateTable('gateways').set(values).where('id', '=', id).returning(COLUMNS).executeTakeFirstOrThrow().catch(rethrowDuplicate);
  }

  async hasPinnedHost(tx: Tx, id: string): Promise<boolean> {
    const pinned = await tx.selectFrom('hosts').select('id').where('gateway_id', '=', id).limit(1).executeTakeFirst();
    return pinned !== undefined;
  }

  async delete(tx: Tx, id: string): Promise<void> {
    await tx.deleteFrom('gateways').where('id', '=', id).execute();
  }
}
