import { sql } from 'kysely';
import { HOST_PROTOCOL } from '@cellport/shared/schemas/host-protocol';
import type { Database, Tx } from '../../db/database.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import { AppError } from '../../lib/app-error.js';

/** A host as the console writes it (and its audit entries record it). */
export interface HostRow { id: string; name: string; address: string; gateway_id: string | null }

/** The console's inventory of hosts: the list with their modems and reports, and a host's writes. */
export class HostsAdminRepository {
  constructor(private readonly db: Database) {}

  /** One transaction for the service's steps: it hands the Tx on to the audit log. */
  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * Every host with its gateway and its agent's last report of that link, every modem, every stored modem report
   * (`known`: the inventory has a modem with that IMEI), and the database's clock, which judged `online`.
   */
  async inventory() {
    const offline = HOST_PROTOCOL.offlineAfterSeconds;
    const [hosts, modems, reports, clock] = await Promise.all([
      this.db.selectFrom('hosts as h')
        .leftJoin('gateways as g', 'g.id', 'h.gateway_id')
        .leftJoin('host_gateway_links as l', 'l.host_id', 'h.id')
        .select(['h.id', 'h.name', 'h.address', 'h.last_seen_at', 'h.agent_version', 'h.agent_started_at', 'h.fingerprint'])
        .select(['g.id as gateway_id', 'g.name as gateway_name', 'g.public_host', 'l.state as link_state', 'l.problem as link_problem',
          'l.changed_at as link_changed_at'])
        .select(sql<boolean>`h.ingest_key_hash is not null`.as('has_key'))
        .select(sql<boolean>`coalesce(h.last_seen_at > now() - make_interval(secs => ${sql.lit(offline)}), false)`.as('online'))
        .orderBy('h.name').execute(),
      this.db.selectFrom('modems')
        .select(['id', 'host_id', 'imei', 'http_port', 'socks_port', 'ext_ip', 'online', 'retired', 'connections', 'problem',
          'health', 'health_reason', 'health_changed_at'])
        .orderBy('host_id').orderBy('imei').execute(),
      this.db.selectFrom('host_modem_reports as r')
        .select(['r.host_id', 'r.imei', 'r.report', 'r.first_seen_at', 'r.changed_at'])
        .select((eb) => eb.exists(eb.selectFrom('modems as m').select('m.id').whereRef('m.imei', '=', 'r.imei')).as('known'))
        .orderBy('r.host_id').orderBy('r.first_seen_at').orderBy('r.imei').execute(),
      sql<{ now: Date }>`select now() as now`.execute(this.db),
    ]);
    return { hosts, modems, reports, now: new Date(clock.rows[0]!.now) };
  }

  /** A name another host has is an answer (ALREADY_EXISTS), not a 500. */
  async insert(tx: Tx, values: { name: string; address: string }): Promise<Omit<HostRow, 'gateway_id'>> {
    return tx.insertInto('hosts').values(values).returning(['id', 'name', 'address'])
      .executeTakeFirstOrThrow().catch(rethrowDuplicate);
  }

  /** The host, locked for the rest of the transaction; `hasKey`: an agent key was issued. */
  async lock(tx: Tx, id: string): Promise<(HostRow & { hasKey: boolean }) | undefined> {
    const row = await tx.selectFrom('hosts').select(['id', 'name', 'address', 'gateway_id', 'ingest_key_hash'])
      .where('id', '=', id).forUpdate().executeTakeFirst();
    if (!row) return undefined;
    const { ingest_key_hash, ...host } = row;
    return { ...host, hasKey: ingest_key_hash !== null };
  }

  async update(tx: Tx, id: string, values: Omit<HostRow, 'id'>): Promise<HostRow> {
    return tx.updateTable('hosts').set(values).where('id', '=', id).returning(['id', 'name', 'address', 'gateway_id'])
      .executeTakeFirstOrThrow().catch(rethrowDuplicate);
  }

  /** Whether any modem, retired or not, was ever on the host (their rows keep its id). */
  async hasModems(tx: Tx, id: string): Promise<boolean> {
    return (await tx.selectFrom('modems').select('id').where('host_id', '=', id).limit(1).executeTakeFirst()) !== undefined;
  }

  async delete(tx: Tx, id: string): Promise<void> {
    await tx.deleteFrom('hosts').where('id', '=', id).execute();
  }
}

function rethrowDuplicate(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError('ALREADY_EXISTS');
  throw error;
}
