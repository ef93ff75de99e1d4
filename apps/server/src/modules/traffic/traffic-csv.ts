import type { TrafficRow } from '@cellport/shared/schemas/traffic';

/** A CSV cell: quoted when needed, and a leading = + - @ neutralized so spreadsheets do not run it as a formula. */
function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function trafficCsv(rows: TrafficRow[]): string {
  const lines = ['port_id,modem_name,bucket,bytes_in,bytes_out'];
  for (const r of rows) lines.push([r.port_id, r.modem_name, r.bucket, r.bytesIn, r.bytesOut].map(cell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
