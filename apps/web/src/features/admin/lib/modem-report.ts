import type { ModemReport } from '@cellport/shared/schemas/admin/host-inventory';

type Translate = (key: string, options?: Record<string, unknown>) => string;

const num = (value: number, language: string, digits = 0) =>
  new Intl.NumberFormat(language === 'cn' ? 'zh-CN' : language, { maximumFractionDigits: digits }).format(value);

/** The signal as the device reports it, strongest evidence first: RSRP and SINR (LTE/5G), else RSSI, else quality. */
export function signalText(report: Pick<ModemReport, 'signal'>, t: Translate, language: string): string | null {
  const s = report.signal;
  if (!s) return null;
  const parts: string[] = [];
  if (s.rsrp !== null) parts.push(t('hosts.signalRsrp', { value: num(s.rsrp, language, 1) }));
  if (s.sinr !== null) parts.push(t('hosts.signalSinr', { value: num(s.sinr, language, 1) }));
  if (parts.length === 0 && s.rssi !== null) parts.push(t('hosts.signalRssi', { value: num(s.rssi, language, 1) }));
  if (parts.length === 0 && s.quality !== null) parts.push(t('hosts.signalQuality', { value: num(s.quality, language) }));
  return parts.length ? parts.join(' · ') : null;
}

/** The last rotation's time and the share of rotations that gave a new IP, or null before the first rotation. */
export function rotationText(report: Pick<ModemReport, 'rotations' | 'successRate'>, t: Translate, language: string): string | null {
  const r = report.rotations;
  if (!r || r.total === 0 || report.successRate === null) return null;
  const rate = t('hosts.rotationRate', { rate: num(report.successRate * 100, language), succeeded: r.succeeded, total: r.total });
  return r.lastMs === null ? rate : `${t('hosts.rotationTime', { seconds: num(r.lastMs / 1000, language, 1) })} · ${rate}`;
}

/** The device in one line: its model, with the manufacturer in front when the model does not name it. */
export function deviceText(report: Pick<ModemReport, 'manufacturer' | 'model'>): string | null {
  const { manufacturer, model } = report;
  if (!model) return manufacturer;
  return manufacturer && !model.toLowerCase().includes(manufacturer.toLowerCase()) ? `${manufacturer} ${model}` : model;
}
