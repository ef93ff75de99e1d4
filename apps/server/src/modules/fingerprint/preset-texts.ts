import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from '@cellport/shared';
import { FINGERPRINT_PRESET_IDS, FINGERPRINT_PRESETS, type FingerprintPresetId } from '@cellport/shared/fingerprint-presets';
import type { FingerprintPresetEntry } from '@cellport/shared/schemas/fingerprint';

interface PresetText { name: string; description: string }
const localesDir = join(dirname(createRequire(import.meta.url).resolve('@cellport/shared/package.json')), 'locales');
/** The presets' names and descriptions, from the web's own `proxies` namespace (one wording for page and API). */
const TEXTS = Object.fromEntries(LANGUAGES.map((lng) => {
  const proxies = JSON.parse(readFileSync(join(localesDir, lng, 'proxies.json'), 'utf8')) as { fingerprint?: { presets?: Record<string, PresetText> } };
  return [lng, proxies.fingerprint?.presets ?? {}];
})) as Record<Language, Record<string, PresetText | undefined>>;

const textOf = (lng: Language, id: FingerprintPresetId): PresetText =>
  TEXTS[lng][id] ?? TEXTS[FALLBACK_LANGUAGE][id] ?? { name: id, description: '' };

/** Every preset with what it should produce and its name and description in `lng` (GET /api/v1/fingerprint-presets). */
export function presetEntries(lng: Language): FingerprintPresetEntry[] {
  return FINGERPRINT_PRESET_IDS.map((id) => {
    const preset = FINGERPRINT_PRESETS[id];
    return { ...preset, options: [...preset.options], p0f: { ...preset.p0f }, ...textOf(lng, id) };
  });
}
