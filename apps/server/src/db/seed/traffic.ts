import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { hashToken } from '../../lib/tokens.js';
import { demoHostKey } from '../../modules/hosts/index.js';

const HISTORY_DAYS = 14;

/**
 * Demo seed step: the demo hosts get ingest keys (derived from the server secret, printed on every start so an
 * agent can be pointed at them) and the demo customer's ports get 14 days of hourly traffic with a daily rhythm.
 * Idempotent: keys are set only where none is, samples are keyed by host, IMEI and hour.
 */
export async function seedTraffic({ db, config, log }: AppContext): Promise<void> {
  const hosts = await db.selectFrom('hosts').select(['id', 'name', 'ingest_key_hash'])
    .where('name', 'like', '%.proxy.cellport.local').execute();
  for (const host of hosts) {
    const key = demoHostKey(host.name, config.secret);
    if (!host.ingest_key_hash) {
      await db.updateTable('hosts').set({ ingest_key_hash: hashToken(key) }).where('id', '=', host.id).where('ingest_key_hash', 'is', null).execute();
    }
    if (host.ingest_key_hash === null || host.ingest_key_hash === hashToken(key)) log.info(`Traffic ingest key for ${host.name}: ${key}`);
  }

  const demo = await db.selectFrom('users').select('id').where('email', '=', config.DEMO_EMAIL.toLowerCase()).executeTakeFirst();
  if (!demo) return;
  // Busier in the evening (UTC), quieter at night; a per-port, per-hour jitter from md5 keeps it deterministic.
  await sql`
    insert into traffic_samples (host_id, imei, interval_start, modem_id, port_id, user_id, bytes_in, bytes_out)
    select m.host_id, m.imei, h, m.id, p.id, p.user_id,
           (20000000 + 380000000 * (0.55 + 0.45 * sin((extract(hour from h at time zone 'UTC') - 12) * pi() / 12))
              * (0.6 + 0.4 * ((('x' || substr(md5(p.id::text || h::text), 1, 8))::bit(32)::int & 1023) / 1023.0)))::bigint,
           (2000000 + 30000000 * (0.55 + 0.45 * sin((extract(hour from h at time zone 'UTC') - 12) * pi() / 12))
              * (0.6 + 0.4 * ((('x' || substr(md5(h::text || p.id::text), 1, 8))::bit(32)::int & 1023) / 1023.0)))::bigint
    from ports p
    join modems m on m.id = p.modem_id
    cross join generate_series(date_trunc('hour', now()) - make_interval(days => ${HISTORY_DAYS}),
                               date_trunc('hour', now()) - interval '1 hour', interval '1 hour') h
    where p.user_id = ${demo.id} and p.status <> 'released'
    on conflict (host_id, imei, interval_start, port_key) do nothing`.execute(db);
}
