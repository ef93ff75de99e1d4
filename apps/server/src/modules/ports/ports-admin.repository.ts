import { sql } from 'kysely';
import type { Database, Tx } from '../../db/database.js';

/** The columns of a port as the console shows it (with its modem's IMEI and IP). */
function selectAdminPorts(q: Database | Tx) {
  return q.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id')
    .select(['p.id', 'p.user_id', 'p.name', 'p.status', 'p.modem_id', 'm.imei', 'm.ext_ip', 'p.tariff_id', 'p.is_shared', 'p.proxy_login',
      'p.expires_at', 'p.auto_renew', 'p.created_at', 'p.suspended_at']);
}

/** The console's reads and writes of ports: a customer's ports, and suspend and resume (abuse handling). */
export class PortsAdminRepository {
  constructor(private readonly db: Database) {}

  /** A customer's ports, the newest 100. */
  ofCustomer(userId: string) {
    return selectAdminPorts(this.db).where('p.user_id', '=', userId).orderBy('p.created_at', 'desc').limit(100).execute();
  }

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Suspends a live port not yet suspended; undefined when it is not one. */
  suspend(tx: Tx, portId: string) {
    return tx.updateTable('ports').set({ suspended_at: sql<Date>`now()` })
      .where('id', '=', portId).where('suspended_at', 'is', null).where('status', '<>', 'released')
      .returning(['id', 'suspended_at']).executeTakeFirst();
  }

  /** Why a suspension did nothing: the port's status and suspension, or undefined when there is no such port. */
  suspension(tx: Tx, portId: string) {
    return tx.selectFrom('ports').select(['status', 'suspended_at']).where('id', '=', portId).executeTakeFirst();
  }

  /** The port's suspension, locked for the resume. */
  lockSuspension(tx: Tx, portId: string) {
    return tx.selectFrom('ports').select(['suspended_at']).where('id', '=', portId).forUpdate().executeTakeFirst();
  }

  /** Lifts a suspension; false when the port was not suspended. */
  async resume(tx: Tx, portId: string): Promise<boolean> {
    const row = await tx.updateTable('ports').set({ suspended_at: null })
      .where('id', '=', portId).where('suspended_at', 'is not', null).returning('id').executeTakeFirst();
    return row !== undefined;
  }

  /** The port as the console shows it, with its owner's e-mail (for the audit entry). */
  withOwner(tx: Tx, portId: string) {
    return selectAdminPorts(tx).innerJoin('users as u', 'u.id', 'p.user_id').select('u.email')
      .where('p.id', '=', portId).executeTakeFirstOrThrow();
  }
}
