// Fingerprint (decision 044; issue 30): the presets' texts and "what a site sees", a customer's port checked
// against the fingerprint echo.
export { FingerprintRepository } from './fingerprint.repository.js';
export { registerFingerprint } from './fingerprint.routes.js';
export { FINGERPRINT_CHECKS_PER_MINUTE, FingerprintCheckService } from './fingerprint.service.js';
export { presetEntries } from './preset-texts.js';
