import { PORT_LIMITS, quotaMonth, quotaState } from '@cellport/shared/schemas/port-limits';
import type { PortQuota, TrafficGranularity, TrafficRow } from '@cellport/shared/schemas/traffic';
import { sql } from 'kysely';
import type { Database } from '../../db/database.js';
import { limitsToApi } from '../catalog/tariff-limits.js';

export interface IngestSample { imei: string; interval_start: string; bytes_in: string; bytes_out: string }
/** One per-port sample of an agent's traffic report (port_id a uuid, counts decimal strings within bigint). */
export interface PortSample { port_id: string; interval_start: string; bytes_in: string; bytes_out: string }

/** Traffic samples: written by proxy hosts, read per customer (every read is scoped by the user id). */
export class TrafficRepository {
  constructor(private readonly db: Database) {}

  /**
   * Stores a batch in one statement. Samples of modems not on this host are skipped. Each sample is attributed
   * to the port that held the modem during its interval (none when no port or several shared it). The primary
   * key (host, IMEI, interval) makes a resend — even a concurrent one — insert nothing: returns how many rows are
   * new, and the ports whose month (port_traffic_months) they added to.
   */
  async ingest(hostId: string, samples: IngestSample[], alignMinutes: number): Promise<{ accepted: number; portIds: string[] }> {
    const { rows } = await sql<{ n: number; ports: string[] }>`
      with v as (
        select * from jsonb_to_recordset(${JSON.stringify(samples)}::jsonb)
          as v(imei text, interval_start timestamptz, bytes_in bigint, bytes_out bigint)
      ), m as (
        select v.*, modems.id as modem_id from v join modems on modems.imei = v.imei and modems.host_id = ${hostId}
      ), attributed as (
        select m.*, (
          select case when count(*) = 1 then (array_agg(p.id))[1] end from ports p
          where p.modem_id = m.modem_id
            and p.created_at < m.interval_start + make_interval(mins => ${alignMinutes})
            and (p.released_at is null or p.released_at > m.interval_start)
        ) as port_id
        from m
      ), inserted as (
        insert into traffic_samples (host_id, imei, interval_start, modem_id, port_id, user_id, bytes_in, bytes_out)
        select ${hostId}, a.imei, a.interval_start, a.modem_id, a.port_id,
               (select user_id from ports where ports.id = a.port_id), a.bytes_in, a.bytes_out
        from attributed a
        on conflict (host_id, imei, interval_start, port_key) do nothing
        returning port_id, interval_start, bytes_in, bytes_out
      ), months as (
        -- What was stored (a resend stores nothing) adds to its port's month, as ingestReport does.
        insert into port_traffic_months as q (port_id, month, bytes)
        select port_id, date_trunc('month', interval_start at time zone 'UTC')::date, sum(bytes_in + bytes_out)
        from inserted where port_id is not null
        group by 1, 2
        on conflict (port_id, month) do update set bytes = q.bytes + excluded.bytes
        returning port_id
      )
      select (select count(*) from inserted)::int as n, (select coalesce(array_agg(port_id), '{}') from months) as ports`.execute(this.db);
    return { accepted: Number(rows[0]?.n ?? 0), portIds: rows[0]?.ports ?? [] };
  }

  /**
   * Counts an agent's traffic report once, in one statement: the batch id goes into traffic_batches, and only when
   * it was not there yet are the samples added — per port, into the row of (host, IMEI, interval, port), summed with
   * what earlier batches brought for the same interval. Samples of ports that are not on this host's modems are
   * skipped. A resend of the same batch (even a concurrent one, which waits on the batch's key) adds nothing. The
   * same statement adds the bytes to each port's month (port_traffic_months), which its quota is measured against.
   */
  async ingestReport(hostId: string, batchId: string, samples: PortSample[]): Promise<{ duplicate: boolean; accepted: number }> {
    const { rows } = await sql<{ fresh: number; n: number }>`
      with batch as (
        insert into traffic_batches (host_id, batch_id) values (${hostId}, ${batchId})
        on conflict (host_id, batch_id) do nothing
        returning 1
      ), v as (
        select v.port_id, v.interval_start, sum(v.bytes_in)::bigint as bytes_in, sum(v.bytes_out)::bigint as bytes_out
        from jsonb_to_recordset(${JSON.stringify(samples)}::jsonb)
          as v(port_id uuid, interval_start timestamptz, bytes_in bigint, bytes_out bigint)
        where exists (select 1 from batch)
        group by v.port_id, v.interval_start
      ), inserted as (
        insert into traffic_samples (host_id, imei, interval_start, modem_id, port_id, user_id, bytes_in, bytes_out, port_key)
        select ${hostId}, m.imei, v.interval_start, m.id, p.id, p.user_id, v.bytes_in, v.bytes_out, p.id
        from v join ports p on p.id = v.port_id join modems m on m.id = p.modem_id and m.host_id = ${hostId}
        on conflict (host_id, imei, interval_start, port_key) do update
          set bytes_in = traffic_samples.bytes_in + excluded.bytes_in,
              bytes_out = traffic_samples.bytes_out + excluded.bytes_out,
              received_at = now()
        returning 1
      ), months as (
        -- Each port's month (calendar month, UTC: decision 030) grows by the same bytes, both directions together.
        insert into port_traffic_months as q (port_id, month, bytes)
        select p.id, date_trunc('month', v.interval_start at time zone 'UTC')::date, sum(v.bytes_in + v.bytes_out)
        from v join ports p on p.id = v.port_id join modems m on m.id = p.modem_id and m.host_id = ${hostId}
        group by 1, 2
        on conflict (port_id, month) do update set bytes = q.bytes + excluded.bytes
        returning 1
      )
      select (select count(*) from batch)::int as fresh, (select count(*) from inserted)::int as n`.execute(this.db);
    const row = rows[0];
    return { duplicate: !row?.fresh, accepted: Number(row?.n ?? 0) };
  }

  /** Forgets batch ids older than this: an agent never resends a report that old. */
  async pruneBatches(olderThanDays: number): Promise<number> {
    const result = await this.db.deleteFrom('traffic_batches')
      .where('received_at', '<', sql<Date>`now() - make_interval(days => ${olderThanDays})`).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async series(userId: string, q: { from: Date; to: Date; granularity: TrafficGranularity; portId?: string | undefined }): Promise<TrafficRow[]> {
    const unit = q.granularity === 'day' ? 'day' : 'hour';
    const { rows } = await sql<{ port_id: string; modem_name: string; bucket: Date; bytes_in: string; bytes_out: string }>`
      select t.port_id, p.name as modem_name, date_trunc(${unit}, t.interval_start, 'UTC') as bucket,
             sum(t.bytes_in)::text as bytes_in, sum(t.bytes_out)::text as bytes_out
      from traffic_samples t join ports p on p.id = t.port_id and p.user_id = ${userId}
      where t.user_id = ${userId} and t.interval_start >= ${q.from} and t.interval_start < ${q.to}
        ${q.portId ? sql`and t.port_id = ${q.portId}` : sql``}
      group by t.port_id, p.name, bucket
      order by bucket, p.name, t.port_id`.execute(this.db);
    return rows.map((r) => ({
      port_id: r.port_id, modem_name: r.modem_name, bucket: new Date(r.bucket).toISOString(),
      bytesIn: r.bytes_in, bytesOut: r.bytes_out,
    }));
  }

  /** Each of the customer's ports (not released) with its limits and its traffic this calendar month (UTC). */
  async quotas(userId: string, now = new Date()): Promise<PortQuota[]> {
    const { start, next } = quotaMonth(now);
    const rows = await this.db.selectFrom('ports as p').innerJoin('tariffs as t', 't.id', 'p.tariff_id')
      .leftJoin('port_traffic_months as q', (j) => j.onRef('q.port_id', '=', 'p.id').on('q.month', '=', sql<Date>`${start.toISOString().slice(0, 10)}::date`))
      .select(['p.id', 'p.name', 'q.bytes', 't.bandwidth_mbps', 't.max_connections', 't.monthly_quota_gb', 't.over_quota', 't.over_quota_mbps'])
      .where('p.user_id', '=', userId).where('p.status', '<>', 'released')
      .orderBy('p.created_at').orderBy('p.id').execute();
    return rows.map((r) => {
      const limits = limitsToApi(r);
      const bytes = BigInt(r.bytes ?? 0);
      return {
        port_id: r.id, modem_name: r.name, limits, monthStart: start.toISOString(), resetsAt: next.toISOString(), bytes: bytes.toString(),
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
