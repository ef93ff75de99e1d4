import { sql, type InferResult, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { Language } from '@cellport/shared';
import type { Port } from '@cellport/shared/schemas/catalog';
import { CompiledOnce } from '../../db/compiled-once.js';
import type { Database, Tx } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import { AppError } from '../../lib/app-error.js';
import { localized, regionNames } from '../catalog/index.js';
import { portName } from '../notifications/index.js';
import { portFingerprint } from './port-fingerprint.js';
import { rotationToken } from './port-credentials.js';

type Q = Database | Tx;

/** What the page shows of the ports in `from` (the table, or a statement's new rows) that are `userId`'s and live. */
function portsListing(from: SelectQueryBuilder<DB & { p: DB['ports'] }, 'p', object>, userId: string) {
  return from
    .innerJoin('modems as m', 'm.id', 'p.modem_id')
    .innerJoin('hosts as h', 'h.id', 'm.host_id')
    // A host behind a gateway is reached at the gateway's public host, on the same ports.
    .leftJoin('gateways as g', 'g.id', 'h.gateway_id')
    .innerJoin('tariffs as t', 't.id', 'p.tariff_id')
    .innerJoin('countries as c', 'c.id', 'm.country_id')
    .innerJoin('carriers as ca', 'ca.id', 'm.carrier_id')
    .leftJoin('regions as r', 'r.id', 'm.region_id')
    .select([
      'p.id', 'p.name', 'p.default_number', 'p.status', 'p.proxy_login', 'p.proxy_password', 'p.whitelist', 'p.rotation_interval',
      'p.rotation_nonce', 'p.expires_at', 'p.auto_renew', 'p.tariff_id', 'p.is_shared', 'p.last_rotated_at', 'p.suspended_at',
      'p.tags', 'p.note', 'p.fingerprint', 'm.fingerprint_default as modem_fingerprint', 't.fingerprint_default as tariff_fingerprint',
      'h.fingerprint as host_fingerprint',
      'm.imei', 'm.apply_status', 'm.ext_ip', 'm.online', 'm.rotation_interval as modem_interval',
      // The port's own numbers (decision 045); a shared port sold before them is served on its modem's.
      (eb) => eb.fn.coalesce('p.http_port', 'm.http_port').as('http_port'),
      (eb) => eb.fn.coalesce('p.socks_port', 'm.socks_port').as('socks_port'),
      'p.rotation_due_at', 'm.rotation_due_at as modem_due_at',
      (eb) => eb.fn.coalesce('g.public_host', 'h.address').as('host'), 't.names as tariff_names', 't.period', 't.price',
      'c.id as country_id', 'c.code as country_code', 'c.names as country_names',
      'ca.id as carrier_id', 'ca.name as carrier_name', 'r.id as region_id', 'r.name as region_name', 'r.name_ru as region_name_ru', 'r.name_cn as region_name_cn',
    ])
    .where('p.user_id', '=', userId).where('p.status', '<>', 'released');
}

/** One row of the listing (`toPorts` gives it the API's shape). */
export type PortListingRow = InferResult<ReturnType<typeof portsListing>>[number];

/**
 * The ports' queries: a customer's ports with everything the Your Proxies page shows (always scoped by user id), the
 * settings a customer changes, the account's login prefix, and the whitelists of one modem's ports.
 */
export class PortsRepository {
  /** The listing's SQL, by number of ids (the purchase's answer and GET /api/v1/modems run it on every call). */
  private readonly listQueries = new CompiledOnce<number>();
  /** newPortsListing's select, kept as text too (a purchase's statement embeds it). */
  private readonly newListingQuery = new CompiledOnce<'new'>(1);

  constructor(private readonly db: Database, private readonly secret: string, private readonly publicUrl: string) {}

  /**
   * A settings change's transaction. A chosen login another port holds fails the unique index: PROXY_LOGIN_TAKEN, only
   * ever about the customer's own logins, as chosen logins carry their account's prefix.
   */
  settingsTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work).catch((err: unknown) => {
      if (isUniqueViolation(err)) throw new AppError('PROXY_LOGIN_TAKEN');
      throw err;
    });
  }

  async list(userId: string, lng: Language, options: { ids?: string[]; tx?: Tx } = {}): Promise<Port[]> {
    if (options.ids && options.ids.length === 0) return [];
    const ids = options.ids ?? [];
    const on = options.tx ?? this.db;
    // Compiled once per number of ids (0: all the customer's ports); the parameters in the builder's order.
    const rows = await this.listQueries.rows(on, ids.length, [userId, 'released', ...ids], () => this.listQuery(on, userId, options.ids));
    return this.toPorts(rows, lng);
  }

  /**
   * The listing of the ports a statement is writing, read from its `new_ports` CTE (`insert … returning *`), for that
   * same statement's answer: a purchase reads its new ports back in the round trip that writes them (issue 31).
   * Rows that are all nulls (the statement's outer join found none) are left out by `toPorts`.
   */
  newPortsListing(tx: Tx, userId: string) {
    return this.newListingQuery.fragment('new', [userId, 'released'],
      () => portsListing(tx.selectFrom(sql<Selectable<DB['ports']>>`new_ports`.as('p')), userId));
  }

  /** Listing rows (list's, or newPortsListing's) in the API's shape, in the reader's language. */
  toPorts(rows: ReadonlyArray<PortListingRow>, lng: Language): Port[] {
    const now = Date.now();
    // `id` is null only in newPortsListing's row of nulls.
    return rows.filter((r) => (r.id as string | null) !== null).map((r) => ({
      _id: r.id,
      IMEI: r.imei,
      modem_name: portName(r, lng),
      // The expiry job flips the status; until it has run, the clock already tells.
      status: r.status === 'active' && r.expires_at.getTime() > now ? 'active' : 'expired',
      applyStatus: r.apply_status,
      ext_ip: r.ext_ip,
      online: r.online,
      suspended: r.suspended_at !== null,
      host: r.host,
      http_port: r.http_port,
      socks_port: r.socks_port,
      login: r.proxy_login,
      password: r.proxy_password,
      whitelist: r.whitelist,
      rotationInterval: r.is_shared ? (r.modem_interval ?? r.rotation_interval) : r.rotation_interval,
      rotationLink: `${this.publicUrl}/api/v1/rotate/${rotationToken(this.secret, r.id, r.rotation_nonce)}`,
      expiresAt: r.expires_at.toISOString(),
      autoRenew: r.auto_renew,
      tariff_id: r.tariff_id,
      tariffName: r.tariff_names,
      period: r.period,
      price: r.price.toString(),
      country: { _id: r.country_id, code: r.country_code, name: localized(r.country_names, lng) },
      carrier: { _id: r.carrier_id, name: r.carrier_name },
      region: r.region_id && r.region_name
        ? { _id: r.region_id, name: localized(regionNames({ name: r.region_name, name_ru: r.region_name_ru, name_cn: r.region_name_cn }), lng) }
        : null,
      isShared: r.is_shared,
      lastRotatedAt: r.last_rotated_at ? r.last_rotated_at.toISOString() : null,
      nextRotationAt: (r.is_shared ? r.modem_due_at : r.rotation_due_at)?.toISOString() ?? null,
      tags: r.tags,
      note: r.note,
      fingerprint: portFingerprint(r.id, r.fingerprint, r.modem_fingerprint, r.tariff_fingerprint, r.host_fingerprint),
    }));
  }

  /** The ports listing's query: the customer's live ports (those among `ids` when given) with what the page shows. */
  private listQuery(on: Q, userId: string, ids: string[] | undefined) {
    let q = portsListing(on.selectFrom('ports as p'), userId);
    if (ids) q = q.where('p.id', 'in', ids);
    return q.orderBy('p.created_at').orderBy('p.id');
  }


  /** A customer's live port with what a settings change checks: its modem, kind, interval, login and its host's presets. */
  ownPortSettings(userId: string, portId: string) {
    return this.db.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id').innerJoin('hosts as h', 'h.id', 'm.host_id')
      .select(['p.id', 'p.name', 'p.default_number', 'p.modem_id', 'p.is_shared', 'p.rotation_interval', 'p.proxy_login', 'p.proxy_password', 'h.fingerprint as host_fingerprint'])
      .where('p.id', '=', portId).where('p.user_id', '=', userId).where('p.status', '<>', 'released').executeTakeFirst();
  }

  /** Writes the changed settings (a chosen login taken by another port fails on the unique index: the caller says so). */
  async updateSettings(tx: Tx, userId: string, portId: string, set: Record<string, unknown>): Promise<void> {
    await tx.updateTable('ports').set(set).where('id', '=', portId).where('user_id', '=', userId).execute();
  }

  /** A customer's live port's modem and kind (a new rotation link is refused for a shared one). */
  ownPortModem(userId: string, portId: string) {
    return this.db.selectFrom('ports').select(['modem_id', 'is_shared'])
      .where('id', '=', portId).where('user_id', '=', userId).where('status', '<>', 'released').executeTakeFirst();
  }

  /** A new rotation link's nonce and token hash; false when the port is not the customer's live one. */
  async setRotationNonce(userId: string, portId: string, nonce: string, tokenHash: string): Promise<boolean> {
    const updated = await this.db.updateTable('ports')
      .set({ rotation_nonce: nonce, rotation_token_hash: tokenHash })
      .where('id', '=', portId).where('user_id', '=', userId).where('status', '<>', 'released')
      .returning('id').executeTakeFirst();
    return updated !== undefined;
  }

  /** The account's prefix of chosen logins, if it has one yet (decision 035). */
  async loginPrefix(userId: string, q: Q = this.db): Promise<string | undefined> {
    return (await q.selectFrom('proxy_login_prefixes').select('prefix').where('user_id', '=', userId).executeTakeFirst())?.prefix;
  }

  /** Records a prefix for the account unless it has one (an account drawing at the same moment wins the unique index). */
  async addLoginPrefix(userId: string, prefix: string, q: Q = this.db): Promise<void> {
    await q.insertInto('proxy_login_prefixes').values({ user_id: userId, prefix }).onConflict((oc) => oc.doNothing()).execute();
  }

  /** Locks the modem's row for the rest of the transaction: whitelist checks of its ports run one after the other. */
  async lockModem(tx: Tx, modemId: string): Promise<void> {
    await tx.selectFrom('modems').select('id').where('id', '=', modemId).forUpdate().execute();
  }

  /** The whitelists of the modem's other live ports. */
  async otherWhitelists(tx: Tx, portId: string, modemId: string): Promise<string[][]> {
    const others = await tx.selectFrom('ports').select('whitelist')
      .where('modem_id', '=', modemId).where('id', '<>', portId).where('status', '<>', 'released').execute();
    return others.map((o) => o.whitelist);
  }

  /** Every live port with a whitelist, by modem then id (the start's check for overlaps stored before the rule). */
  storedWhitelists() {
    return this.db.selectFrom('ports').select(['id', 'modem_id', 'whitelist'])
      .where('status', '<>', 'released').where('whitelist', '<>', '[]' as never).orderBy('modem_id').orderBy('id').execute();
  }
}
