import * as z from 'zod/mini';
import {
  FINGERPRINT_PRESETS, fingerprintEchoResultSchema, fingerprintPresetIdSchema, fingerprintPresetSchema,
  type FingerprintEchoResult, type FingerprintPreset, type FingerprintPresetId,
} from '../fingerprint-presets.js';
import { text } from './text.js';

// OS fingerprint presets in the customer API (issue 30): the list, a port's preset, and "what a site sees".

/** Where a port's active preset comes from: its own choice, its modem's or its tariff's operator default, or none. */
export const FINGERPRINT_SOURCES = ['port', 'modem', 'tariff', 'none'] as const;
export type FingerprintSource = (typeof FINGERPRINT_SOURCES)[number];

/** The active preset: the port's own, else the modem's default, else the tariff's, else native. */
export function activeFingerprint(own: FingerprintPresetId | null, modemDefault: FingerprintPresetId | null,
  tariffDefault: FingerprintPresetId | null): { preset: FingerprintPresetId; source: FingerprintSource } {
  if (own) return { preset: own, source: 'port' };
  if (modemDefault) return { preset: modemDefault, source: 'modem' };
  if (tariffDefault) return { preset: tariffDefault, source: 'tariff' };
  return { preset: 'native', source: 'none' };
}

/** A port's preset as GET /api/v1/modems shows it. */
export const portFingerprintSchema = z.object({
  /** The port's own choice; null: it follows the operator's default (`active`, `source`). */
  preset: z.nullable(fingerprintPresetIdSchema),
  /** What its new connections look like now. */
  active: fingerprintPresetIdSchema,
  source: z.enum(FINGERPRINT_SOURCES),
  /** Whether the port's host can apply presets; when not, `unavailableReason` says why (as its agent reported it). */
  available: z.boolean(),
  unavailableReason: z.nullable(text()),
  /** The host could not apply this port's preset: the port refuses new connections until it can (why, in the agent's words). */
  failing: z.nullable(text()),
});
export type PortFingerprint = z.infer<typeof portFingerprintSchema>;

/** PATCH /api/v1/modems/:id `fingerprint`: a preset id, or null to follow the operator's default again. */
export const portFingerprintPatchSchema = z.nullable(fingerprintPresetIdSchema);

/** GET /api/v1/fingerprint-presets: each preset's facts with its name and description in the reader's language. */
export const fingerprintPresetEntrySchema = z.extend(fingerprintPresetSchema, { name: text(), description: text() });
export const fingerprintPresetsResponseSchema = z.object({ presets: z.array(fingerprintPresetEntrySchema) });
export type FingerprintPresetEntry = z.infer<typeof fingerprintPresetEntrySchema>;

/** One line of "what a site sees": a fact the echo read off the SYN against what the preset should produce. */
export const FINGERPRINT_CHECK_FIELDS = ['ttl', 'window', 'windowScale', 'options', 'p0f', 'mss', 'ja4t'] as const;
export const fingerprintCheckFieldSchema = z.object({
  field: z.enum(FINGERPRINT_CHECK_FIELDS),
  expected: text(),
  seen: text(),
  matches: z.boolean(),
  /** Whether `matches` counts for the verdict: MSS (and so JA4T) can be lowered on the way by the carrier. */
  decisive: z.boolean(),
});
/** POST /api/v1/modems/:id/fingerprint-check. */
export const fingerprintCheckResponseSchema = z.object({
  preset: fingerprintPresetIdSchema,
  /** Every decisive field matches the preset. */
  matches: z.boolean(),
  fields: z.array(fingerprintCheckFieldSchema),
  seen: fingerprintEchoResultSchema,
  checkedAt: text(),
});
export type FingerprintCheckResponse = z.infer<typeof fingerprintCheckResponseSchema>;

/** The echo's options in p0f's spelling, `eol+N` read as the `eol` of a preset's layout. */
const layoutOf = (options: readonly string[]) => options.map((o) => (o.startsWith('eol') ? 'eol' : o)).join(',');

/**
 * Whether p0f's label is the preset's: the same, or the same system with p0f's version after it ("Linux 3.11 and
 * newer", "Mac OS X 10.x") — but Android's own label is never native Linux's.
 */
export function sameP0fLabel(expected: string, seen: string | null): boolean {
  if (seen === null) return false;
  if (seen === expected) return true;
  return seen.startsWith(`${expected} `) && !seen.startsWith('Linux (Android)');
}

/**
 * What the echo saw against the preset. Decisive: the initial TTL, window, scale, option layout and p0f's label, what
 * fingerprinting sites weigh. MSS and JA4T (which carries the MSS) are shown but not judged: a carrier may clamp MSS.
 */
export function compareFingerprint(presetId: FingerprintPresetId, seen: FingerprintEchoResult): Pick<FingerprintCheckResponse, 'matches' | 'fields'> {
  const p: FingerprintPreset = FINGERPRINT_PRESETS[presetId];
  const row = (field: (typeof FINGERPRINT_CHECK_FIELDS)[number], expected: string, got: string, decisive: boolean, matches = expected === got) =>
    ({ field, expected, seen: got, matches, decisive });
  const fields = [
    row('ttl', String(p.ttl), String(seen.initialTtl), true),
    row('window', String(p.window), String(seen.window), true),
    row('windowScale', String(p.windowScale), seen.windowScale === null ? '—' : String(seen.windowScale), true),
    row('options', layoutOf(p.options), layoutOf(seen.options), true),
    row('p0f', p.p0f.label, seen.p0f.label ?? '—', true, sameP0fLabel(p.p0f.label, seen.p0f.label)),
    row('mss', String(p.mss), seen.mss === null ? '—' : String(seen.mss), false),
    row('ja4t', p.ja4t, seen.ja4t, false),
  ];
  return { matches: fields.every((f) => !f.decisive || f.matches), fields };
}
