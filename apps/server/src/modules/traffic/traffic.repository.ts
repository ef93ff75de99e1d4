import type { Language } from '@cellport/shared';
import { PORT_LIMITS, quotaMonth, quotaState } from '@cellport/shared/schemas/port-limits';
import type { PortQuota, TrafficGranularity, TrafficRow } from '@cellport/shared/schemas/traffic';
import { HOST_PROTOCOL } from '@cellport/shared/schemas/host-protocol';
import { sql } from 'kysely';
import type { Database, Tx } from '../../db/database.js';
import { limitsToApi } from '../catalog/index.js';
import { portName } from '../notifications/index.js';

/** PostgreSQL's bigint limit: counts saturate here rather than fail (a failing batch would fail on every resend). */
const MAX_BIGINT = sql.raw('9223372036854775807');
/** One per-port sample of an agent's traffic report (port_id a uuid, counts decimal strings within bigint). */
export interface PortSample { port_id: string; interval_start: string; bytes_in: string; bytes_out: string }

export interface QuotaCrossing {
  port_id: string; user_id: string; name: string; default_number: number | null; monthly_quota_gb: number; over_quota: 'throttle' | 'block'; over_quota_mbps: number | null;
}

const QUOTA_BYTES = sql`t.monthly_quota_gb::numeric * ${PORT_LIMITS.bytesPerGb}`;

function crossings(tx: Tx, portIds: string[], month: string, threshold: 'reached' | 'warned') {
  const over = threshold === 'reached'
    ? sql`q.bytes::numeric >= ${QUOTA_BYTES}`
    : sql`q.bytes::numeric * 100 >= ${QUOTA_BYTES} * ${PORT_LIMITS.warnPercent}`;
  const set = threshold === 'reached' ? sql`reached_at = now(), warned_at = coalesce(q.warned_at, now())` : sql`warned_at = now()`;
  const unset = threshold === 'reached' ? sql`q.reached_at is null` : sql`q.warned_at is null`;
  return sql<QuotaCrossing>`
    update port_traffic_months q set ${set}
    from ports p join tariffs t on t.id = p.tariff_id
    where q.port_id = p.id and q.port_id in (${sql.join(portIds)}) and q.month = ${month}::date
      and ${unset} and t.monthly_quota_gb is not null and ${over}
    returning q.port_id, p.user_id, p.name, p.default_number, t.monthly_quota_gb, t.over_quota, t.over_quota_mbps`.execute(tx);
}

/** Traffic samples: written by proxy hosts, read per customer (every read is scoped by the user id). */
export class TrafficRepository {
  constructor(private readonly db: Database) {}

  /** Runs work in one transaction (a quota's flag and its notification are written together: port-quota.ts). */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * Flags the ports of this month that crossed the threshold (only while the flag is unset, so each threshold is
   * crossed once per port and month whichever instance records which batch) and returns them.
   */
  async quotaCrossings(tx: Tx, portIds: string[], month: string, threshold: 'reached' | 'warned'): Promise<QuotaCrossing[]> {
    return (await crossings(tx, portIds, month, threshold)).rows;
  }

  /**
   * Counts an agent's traffic report once, in one statement: the batch id goes into traffic_batches, and only when
   * it was not there yet are the samples added — per port, into the row of (host, IMEI, interval, port), summed with
   * what earlier batches brought for the same interval. A sample counts only for a port on this host's modems that
   * was held in that interval (created before its end, not released before its start, give or take one interval): a host key cannot charge a
   * released port, another host's port or a time the port did not exist. A resend of the same batch (even a
   * concurrent one, which waits on the batch's key) adds nothing. The same statement adds the bytes to each port's
   * month (port_traffic_months), which its quota is measured against. Sums saturate at bigint's limit instead of
   * failing: an overflow must not make a batch fail on every resend. `refused`: the port-intervals not taken.
   */
  async ingestReport(hostId: string, batchId: string, samples: PortSample[]): Promise<{ duplicate: boolean; accepted: number; refused: number }> {
    const { rows } = await sql<{ fresh: number; n: number; refused: number }>`
      with batch as (
        insert into traffic_batches (host_id, batch_id) values (${hostId}, ${batchId})
        on conflict (host_id, batch_id) do nothing
        returning 1
      ), v as (
        select v.port_id, v.interval_start, sum(v.bytes_in) as bytes_in, sum(v.bytes_out) as bytes_out
        from jsonb_to_recordset(${JSON.stringify(samples)}::jsonb)
          as v(port_id uuid, interval_start timestamptz, bytes_in bigint, bytes_out bigint)
        where exists (select 1 from batch)
        group by v.port_id, v.interval_start
      ), owned as (
        select p.id as port_id, p.user_id, m.id as modem_id, m.imei, v.interval_start,
               least(v.bytes_in, ${MAX_BIGINT})::bigint as bytes_in, least(v.bytes_out, ${MAX_BIGINT})::bigint as bytes_out
        from v join ports p on p.id = v.port_id join modems m on m.id = p.modem_id and m.host_id = ${hostId}
        -- One interval of clock difference between agent and server either way, as for intervals ahead of now.
        where p.created_at < v.interval_start + make_interval(mins => ${2 * HOST_PROTOCOL.trafficIntervalMinutes})
          and (p.released_at is null or p.released_at > v.interval_start - make_interval(mins => ${HOST_PROTOCOL.trafficIntervalMinutes}))
      ), inserted as (
        insert into traffic_samples (host_id, imei, interval_start, modem_id, port_id, user_id, bytes_in, bytes_out, port_key)
        select ${hostId}, o.imei, o.interval_start, o.modem_id, o.port_id, o.user_id, o.bytes_in, o.bytes_out, o.port_id
        from owned o
        on conflict (host_id, imei, interval_start, port_key) do update
          set bytes_in = least(traffic_samples.bytes_in::numeric + excluded.bytes_in, ${MAX_BIGINT})::bigint,
              bytes_out = least(traffic_samples.bytes_out::numeric + excluded.bytes_out, ${MAX_BIGINT})::bigint,
              received_at = now()
        returning 1
      ), months as (
        -- Each port's month (calendar month, UTC: decision 030) grows by the same bytes, both directions together.
        insert into port_traffic_months as q (port_id, month, bytes)
        select o.port_id, date_trunc('month', o.interval_start at time zone 'UTC')::date,
               least(sum(o.bytes_in::numeric + o.bytes_out), ${MAX_BIGINT})::bigint
        from owned o
        group by 1, 2
        on conflict (port_id, month) do update set bytes = least(q.bytes::numeric + excluded.bytes, ${MAX_BIGINT})::bigint
        returning 1
      )
      select (select count(*) from batch)::int as fresh, (select count(*) from inserted)::int as n,
             ((select count(*) from v) - (select count(*) from owned))::int as refused`.execute(this.db);
    const row = rows[0];
    return { duplicate: !row?.fresh, accepted: Number(row?.n ?? 0), refused: Number(row?.refused ?? 0) };
  }

  /** Forgets batch ids older than this: an agent never resends a report that old. */
  async pruneBatches(olderThanDays: number): Promise<number> {
    const result = await this.db.deleteFrom('traffic_batches')
      .where('received_at', '<', sql<Date>`now() - make_interval(days => ${olderThanDays})`).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Ports' names in `lng` (a default name in the reader's language, issue 27 item 12). */
  async series(userId: string, q: { from: Date; to: Date; granularity: TrafficGranularity; portId?: string | undefined }, lng: Language = 'en'): Promise<TrafficRow[]> {
    const unit = q.granularity === 'day' ? 'day' : 'hour';
    const { rows } = await sql<{ port_id: string; name: string; default_number: number | null; bucket: Date; bytes_in: string; bytes_out: string }>`
      select t.port_id, p.name, p.default_number, date_trunc(${unit}, t.interval_start, 'UTC') as bucket,
             sum(t.bytes_in)::text as bytes_in, sum(t.bytes_out)::text as bytes_out
      from traffic_samples t join ports p on p.id = t.port_id and p.user_id = ${userId}
      where t.user_id = ${userId} and t.interval_start >= ${q.from} and t.interval_start < ${q.to}
        ${q.portId ? sql`and t.port_id = ${q.portId}` : sql``}
      group by t.port_id, p.name, p.default_number, bucket
      order by bucket, p.name, t.port_id`.execute(this.db);
    return rows.map((r) => ({
      port_id: r.port_id, modem_name: portName(r, lng), bucket: new Date(r.bucket).toISOString(),
      bytesIn: r.bytes_in, bytesOut: r.bytes_out,
    }));
  }

  /** Each of the customer's ports (not released) with its limits and its traffic this calendar month (UTC). */
  async quotas(userId: string, lng: Language = 'en', now = new Date()): Promise<PortQuota[]> {
    const { start, next } = quotaMonth(now);
    const rows = await this.db.selectFrom('ports as p').innerJoin('tariffs as t', 't.id', 'p.tariff_id')
      .leftJoin('port_traffic_months as q', (j) => j.onRef('q.port_id', '=', 'p.id').on('q.month', '=', sql<Date>`${start.toISOString().slice(0, 10)}::date`))
      .select(['p.id', 'p.name', 'p.default_number', 'q.bytes', 't.bandwidth_mbps', 't.max_connections', 't.monthly_quota_gb', 't.over_quota', 't.over_quota_mbps'])
      .where('p.user_id', '=', userId).where('p.status', '<>', 'released')
      .orderBy('p.created_at').orderBy('p.id').execute();
    return rows.map((r) => {
      const limits = limitsToApi(r);
      const bytes = BigInt(r.bytes ?? 0);
      return {
        port_id: r.id, modem_name: portName(r, lng), limits, monthStart: start.toISOString(), resetsAt: next.toISOString(), bytes: bytes.toString(),
        quotaBytes: limits.monthlyQuotaGb === null ? null : (BigInt(limits.monthlyQuotaGb) * BigInt(PORT_LIMITS.bytesPerGb)).toString(),
        state: quotaState(limits, bytes),
      };
    });
  }

  async totalSince(userId: string, since: Date): Promise<{ bytesIn: string; bytesOut: string }> {
    const { rows } = await sql<{ bytes_in: string | null; bytes_out: string | null }>`
      select sum(bytes_in)::text as bytes_in, sum(bytes_out)::text as bytes_out from traffic_samples
      where user_id = ${userId} and interval_start >= ${since}`.execute(this.db);
    return { bytesIn: rows[0]?.bytes_in ?? '0', bytesOut: rows[0]?.bytes_out ?? '0' };
  }
}
