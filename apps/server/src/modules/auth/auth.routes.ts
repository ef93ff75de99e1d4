import type { App, AppContext } from '../../context.js';
import { createCaptcha } from '../../integrations/captcha/captcha.js';
import { AuthRepository } from './auth.repository.js';
import { AuthService } from './auth.service.js';
import { CaptchaGate } from './captcha-gate.js';
import { registerCaptchaRoutes } from './captcha.routes.js';
import { registerPasswordResetRoutes } from './password-reset.routes.js';
import { registerSignInRoutes } from './signin.routes.js';
import { registerSignUpRoutes } from './signup.routes.js';

/** Sign-up, e-mail confirmation, captcha, sign-in/out and password reset (spec §2, §4, §5, §7, §8). */
export function registerAuth(app: App, ctx: AppContext): void {
  const auth = new AuthService(new AuthRepository(ctx.db), ctx);
  const gate = new CaptchaGate(ctx.config);
  registerCaptchaRoutes(app, ctx, createCaptcha(ctx.config, ctx.db), gate);
  registerSignUpRoutes(app, ctx, auth);
  registerSignInRoutes(app, ctx, auth, gate);
  registerPasswordResetRoutes(app, ctx, auth);
}
