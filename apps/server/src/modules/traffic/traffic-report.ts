import type { Language } from '@cellport/shared';
import { TRAFFIC_LIMITS, type TrafficQuery, type TrafficRow } from '@cellport/shared/schemas/traffic';
import { AppError } from '../../lib/app-error.js';
import type { TrafficRepository } from './traffic.repository.js';

const DAY_MS = 86_400_000;

/** A customer's per-port series for a query (GET /api/v1/traffic, its CSV and the MCP tool): the range is checked here. */
export async function trafficRows(repository: TrafficRepository, userId: string, q: TrafficQuery, lng: Language): Promise<TrafficRow[]> {
  const from = new Date(q.from);
  const to = new Date(q.to);
  if (!(to > from) || to.getTime() - from.getTime() > TRAFFIC_LIMITS.maxRangeDays * DAY_MS) throw new AppError('TRAFFIC_RANGE');
  return repository.series(userId, { from, to, granularity: q.granularity ?? 'hour', portId: q.port_id }, lng);
}

/** The series with its totals, as GET /api/v1/traffic answers. */
export async function trafficReport(repository: TrafficRepository, userId: string, q: TrafficQuery, lng: Language) {
  const data = await trafficRows(repository, userId, q, lng);
  let bytesIn = 0n;
  let bytesOut = 0n;
  for (const r of data) { bytesIn += BigInt(r.bytesIn); bytesOut += BigInt(r.bytesOut); }
  return { data, totals: { bytesIn: bytesIn.toString(), bytesOut: bytesOut.toString() } };
}
