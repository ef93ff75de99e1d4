import type { App, AppContext } from '../../context.js';
import type { Captcha } from '../../integrations/captcha/captcha.js';
import type { AuthService } from './auth.service.js';
import type { CaptchaGate } from './captcha-gate.js';
import { registerCaptchaRoutes } from './captcha.routes.js';
import { registerPasswordResetRoutes, type AccessHolders } from './password-reset.routes.js';
import { registerSignInRoutes } from './signin.routes.js';
import { registerSignUpRoutes } from './signup.routes.js';

/** What the account routes use: sign-in and its captcha, and what a password reset may take with it. */
export interface AuthRouteServices extends AccessHolders {
  auth: AuthService;
  captchaGate: CaptchaGate;
  captcha: Captcha;
}

/** Sign-up, e-mail confirmation, captcha, sign-in/out and password reset (spec §2, §4, §5, §7, §8). */
export function registerAuth(app: App, ctx: AppContext, services: AuthRouteServices): void {
  const { auth, captchaGate: gate } = services;
  registerCaptchaRoutes(app, ctx, services.captcha, gate);
  registerSignUpRoutes(app, ctx, auth, gate);
  registerSignInRoutes(app, ctx, auth, gate);
  registerPasswordResetRoutes(app, ctx, services);
}
