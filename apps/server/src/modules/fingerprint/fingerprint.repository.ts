import type { Database } from '../../db/database.js';

/** What a fingerprint check reads: the customer's own port with what decides its preset and how to reach it. */
export class FingerprintRepository {
  constructor(private readonly db: Database) {}

  /** The port by the customer's id (never another's), not released, or undefined. */
  async portToCheck(userId: string, portId: string) {
    return this.db.selectFrom('ports as p')
      .innerJoin('modems as m', 'm.id', 'p.modem_id').innerJoin('hosts as h', 'h.id', 'm.host_id')
      .innerJoin('tariffs as t', 't.id', 'p.tariff_id').leftJoin('gateways as g', 'g.id', 'h.gateway_id')
      .select((eb) => [
        'p.id', 'h.id as host_id', 'm.online as modem_online', 'p.proxy_login', 'p.proxy_password', 'p.fingerprint', 'm.fingerprint_default as modem_fingerprint',
        (eb) => eb.fn.coalesce('p.http_port', 'm.http_port').as('http_port'),
        't.fingerprint_default as tariff_fingerprint', 'h.fingerprint as host_fingerprint', eb.fn.coalesce('g.public_host', 'h.address').as('host'),
      ])
      .where('p.id', '=', portId).where('p.user_id', '=', userId).where('p.status', '<>', 'released').executeTakeFirst();
  }
}
