import type { Language } from '@cellport/shared/constants';
import { htmlLang } from './i18n';

// Byte counts arrive as decimal strings (they outgrow 2^53 over a port's life). Shown in decimal units (1 kB =
// 1000 B, as carriers bill traffic), with the unit names of the reader's language from Intl.
const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/** Parses a byte count string; 0n for anything that is not one (a display never throws). */
export function parseBytes(value: string | bigint | null | undefined): bigint {
  if (typeof value === 'bigint') return value;
  return typeof value === 'string' && /^\d+$/.test(value) ? BigInt(value) : 0n;
}

/** "1.5 GB" / "1,5 ГБ" style text, one decimal (truncated) from kB up. */
export function formatBytes(value: string | bigint | null | undefined, language: Language): string {
  const bytes = parseBytes(value);
  let unit = 0;
  let scaled = bytes;
  while (scaled >= 1000n && unit < UNITS.length - 1) { scaled /= 1000n; unit += 1; }
  // One decimal: from the bigint, so large counts keep their leading digits exactly.
  const divisor = 1000n ** BigInt(unit);
  const tenths = Number((bytes * 10n) / divisor) / 10;
  // English Intl spells the smallest unit "byte" ("999 byte"); B reads as the other units do.
  if (unit === 0 && language === 'en') return `${new Intl.NumberFormat('en').format(tenths)} B`;
  return new Intl.NumberFormat(htmlLang(language), {
    style: 'unit', unit: UNITS[unit], unitDisplay: 'short', maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(tenths);
}
