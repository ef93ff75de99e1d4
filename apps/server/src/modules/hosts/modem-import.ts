import { ERRORS } from '@cellport/shared';
import { ADMIN_LIMITS } from '@cellport/shared/schemas/admin/common';
import { MODEM_CSV_COLUMNS } from '@cellport/shared/schemas/admin/modems';
import * as z from 'zod/mini';
import type { Tx } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { parseCsv } from './csv.js';
import { normalizeModem } from './modem-values.js';
import type { ModemsRepository } from './modems.repository.js';

type Column = (typeof MODEM_CSV_COLUMNS)[number];
type RowCode = 'CSV_FIELD' | 'CSV_DUPLICATE' | 'CSV_GATEWAY_PORT' | 'IMEI_TAKEN' | 'MODEM_PORT_TAKEN' | 'HOST_UNKNOWN' | 'COUNTRY_UNKNOWN' | 'CARRIER_UNKNOWN' | 'REGION_UNKNOWN';
export interface RowError { code: RowCode; field: string | null; message: string }
export interface PlannedRow { row: number; imei: string | null; values: ReturnType<typeof normalizeModem> | null; error: RowError | null }

const fail = (code: RowCode, field: Column | null = null): RowError => ({
  code, field, message: ERRORS[code].replace('{{field}}', field ?? ''),
});
const port = z.coerce.number().check(z.int(), z.minimum(1), z.maximum(65535));
const FIELD_CHECKS: Partial<Record<Column, z.ZodMiniType>> = {
  IMEI: z.string().check(z.regex(/^\d{14,16}$/)),
  http_port: port,
  socks_port: port,
  ext_ip: z.union([z.ipv4(), z.ipv6()]),
  country: z.string().check(z.regex(/^[A-Za-z]{2}$/)),
  carrier: z.string().check(z.minLength(1), z.maxLength(100)),
  host: z.string().check(z.minLength(1), z.maxLength(100)),
  isShared: z.enum(['true', 'false', '1', '0', 'yes', 'no']),
  capacity: z.coerce.number().check(z.int(), z.minimum(1), z.maximum(1000)),
};
const lower = (s: string) => s.trim().toLowerCase();

/**
 * Reads the CSV and decides, row by row, what would be inserted and why a row cannot be. Looks everything up once
 * (hosts, countries, carriers, regions, taken IMEIs and host ports), so a file of thousands of rows costs a handful
 * of queries (ModemsRepository.importLookups). Rows are checked against the database and against the rows above them
 * in the file, including the ports of the other hosts behind a pinned host's gateway.
 */
export async function planImport(repo: ModemsRepository, tx: Tx, csv: string): Promise<{ rows: PlannedRow[] }> {
  const [header, ...lines] = parseCsv(csv);
  const index = new Map((header?.fields ?? []).map((name, i) => [lower(name), i]));
  if (!header || MODEM_CSV_COLUMNS.some((c) => c !== 'region' && c !== 'capacity' && !index.has(lower(c)))) {
    throw new AppError('CSV_HEADER');
  }
  if (lines.length > ADMIN_LIMITS.csvMaxRows) throw new AppError('CSV_TOO_LARGE');

  // Gateway ports (gateways/gateway-ports.ts): the lookups lock the pinned hosts, then the gateways, before reading.
  const { hosts, countries, carriers, regions, modems, portNumbers } = await repo.importLookups(tx);
  const hostByName = new Map(hosts.map((h) => [lower(h.name), h.id]));
  const countryByCode = new Map(countries.map((c) => [c.code.toUpperCase(), c.id]));
  const imeis = new Set(modems.map((m) => m.imei));
  const ports = new Set(modems.flatMap((m) => [`${m.host_id}:${m.http_port}`, `${m.host_id}:${m.socks_port}`]));
  // A gateway serves each port number for one host: `gateway:port` → the host whose serving modem has it.
  const gatewayOf = new Map(hosts.map((h) => [h.id, h.gateway_id]));
  const gatewayPorts = new Map<string, string>();
  for (const m of modems) {
    const gateway = gatewayOf.get(m.host_id);
    if (gateway && !m.retired) for (const p of [m.http_port, m.socks_port]) gatewayPorts.set(`${gateway}:${p}`, m.host_id);
  }
  // Customers' ports own their numbers (decision 045): a new modem takes none of them on the host or its gateway.
  const portTaken = new Set<string>();
  for (const p of portNumbers) {
    const gateway = gatewayOf.get(p.host_id);
    for (const n of p.numbers) {
      portTaken.add(`${p.host_id}:${n}`);
      if (gateway) gatewayPorts.set(`${gateway}:${n}`, p.host_id);
    }
  }

  const rows = lines.map(({ line, fields }): PlannedRow => {
    const get = (c: Column) => (index.has(lower(c)) ? (fields[index.get(lower(c))!] ?? '').trim() : '');
    const imei = get('IMEI') || null;
    const planned = (error: RowError | null, values: PlannedRow['values'] = null): PlannedRow => ({ row: line, imei, values, error });
    for (const c of MODEM_CSV_COLUMNS) {
      const value = get(c);
      if ((c === 'region' || c === 'capacity') && value === '') continue;
      const check = FIELD_CHECKS[c];
      if (check && !z.safeParse(check, value).success) return planned(fail('CSV_FIELD', c));
    }
    const hostId = hostByName.get(lower(get('host')));
    if (!hostId) return planned(fail('HOST_UNKNOWN', 'host'));
    const countryId = countryByCode.get(get('country').toUpperCase());
    if (!countryId) return planned(fail('COUNTRY_UNKNOWN', 'country'));
    const carrier = carriers.find((c) => c.country_id === countryId && lower(c.name) === lower(get('carrier')));
    if (!carrier) return planned(fail('CARRIER_UNKNOWN', 'carrier'));
    let regionId: string | null = null;
    if (get('region')) {
      const region = regions.find((r) => r.country_id === countryId && lower(r.name) === lower(get('region'))
        && (!r.carrier_id || r.carrier_id === carrier.id));
      if (!region) return planned(fail('REGION_UNKNOWN', 'region'));
      regionId = region.id;
    }
    const httpPort = Number(get('http_port'));
    const socksPort = Number(get('socks_port'));
    if (httpPort === socksPort) return planned(fail('CSV_FIELD', 'socks_port'));
    if (imeis.has(imei!)) return planned(fail(modems.some((m) => m.imei === imei) ? 'IMEI_TAKEN' : 'CSV_DUPLICATE', 'IMEI'));
    const keys = [`${hostId}:${httpPort}`, `${hostId}:${socksPort}`];
    if (keys.some((k) => portTaken.has(k))) return planned(fail('MODEM_PORT_TAKEN', 'http_port'));
    if (keys.some((k) => ports.has(k))) {
      const inDb = modems.some((m) => m.host_id === hostId && [m.http_port, m.socks_port].some((p) => p === httpPort || p === socksPort));
      return planned(fail(inDb ? 'MODEM_PORT_TAKEN' : 'CSV_DUPLICATE', 'http_port'));
    }
    const gateway = gatewayOf.get(hostId);
    if (gateway) {
      const clash = ([['http_port', httpPort], ['socks_port', socksPort]] as const)
        .find(([, p]) => (gatewayPorts.get(`${gateway}:${p}`) ?? hostId) !== hostId);
      if (clash) return planned(fail('CSV_GATEWAY_PORT', clash[0]));
      for (const p of [httpPort, socksPort]) gatewayPorts.set(`${gateway}:${p}`, hostId);
    }
    imeis.add(imei!);
    for (const k of keys) ports.add(k);
    const isShared = ['true', '1', 'yes'].includes(get('isShared'));
    return planned(null, normalizeModem({
      imei: imei!, host_id: hostId, http_port: httpPort, socks_port: socksPort, ext_ip: get('ext_ip'), country_id: countryId,
      carrier_id: carrier.id, region_id: regionId, is_shared: isShared, capacity: get('capacity') ? Number(get('capacity')) : 1,
      rotation_interval: null, online: true,
    }));
  });
  return { rows };
}
