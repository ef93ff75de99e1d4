// Auth (decision 044): sign-up, e-mail confirmation, the captcha and its passes, sign-in and sign-out, password reset
// and the two-factor recovery codes; the parts the composition root builds, and what accounts take from it.
export { AuthRepository } from './auth.repository.js';
export { registerAuth, type AuthRouteServices } from './auth.routes.js';
export { AuthService } from './auth.service.js';
export { CaptchaGate } from './captcha-gate.js';
export { CaptchaPassesRepository } from './captcha-passes.repository.js';
export type { AccessHolders } from './password-reset.routes.js';
export { RecoveryCodesRepository } from './recovery-codes.repository.js';
export { SessionsRepository } from './sessions.repository.js';
