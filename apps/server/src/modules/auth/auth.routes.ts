import type { Services } from '../../composition.js';
import type { App, AppContext } from '../../context.js';
import { registerCaptchaRoutes } from './captcha.routes.js';
import { registerPasswordResetRoutes } from './password-reset.routes.js';
import { registerSignInRoutes } from './signin.routes.js';
import { registerSignUpRoutes } from './signup.routes.js';

/** Sign-up, e-mail confirmation, captcha, sign-in/out and password reset (spec §2, §4, §5, §7, §8). */
export function registerAuth(app: App, ctx: AppContext, services: Services): void {
  const { auth, captchaGate: gate } = services;
  registerCaptchaRoutes(app, ctx, services.captcha, gate);
  registerSignUpRoutes(app, ctx, auth, gate);
  registerSignInRoutes(app, ctx, auth, gate);
  registerPasswordResetRoutes(app, ctx, services);
}
