// The OS fingerprint presets' ids (fingerprint-presets.ts describes each): plain values, no zod, so the Your Proxies
// page lists the choices without loading the presets' schema and zod (issue 31, item 4).

export const FINGERPRINT_PRESET_IDS = ['native', 'windows', 'macos', 'ios', 'android'] as const;
export type FingerprintPresetId = (typeof FINGERPRINT_PRESET_IDS)[number];
