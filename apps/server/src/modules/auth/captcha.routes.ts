import { captchaChallengeSchema, captchaConfigSchema, captchaVerifySchema, okSchema } from '@cellport/shared/schemas/auth';
import type { App, AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import type { Captcha } from '../../integrations/captcha/captcha.js';
import type { CaptchaGate } from './captcha-gate.js';
import { AUTH_BODY_LIMIT, authRateLimit } from './http.js';

/** The captcha a browser passes once before it may check credentials or sign in. */
export function registerCaptchaRoutes(app: App, { config }: AppContext, captcha: Captcha, gate: CaptchaGate): void {
  app.get('/api/v1/captcha', {
    config: authRateLimit(config),
    schema: { response: { 200: captchaConfigSchema } },
  }, async (request) => ({ provider: captcha.provider, siteKey: captcha.siteKey, passed: await gate.passed(request) }));

  app.get('/api/v1/captcha/challenge', {
    config: authRateLimit(config),
    schema: { response: { 200: captchaChallengeSchema } },
  }, async (_request, reply) => {
    const challenge = await captcha.challenge();
    if (!challenge) throw new AppError('NOT_FOUND');
    void reply.header('cache-control', 'no-store');
    return challenge;
  });

  app.post('/api/v1/verify-re-captcha', {
    config: authRateLimit(config), bodyLimit: AUTH_BODY_LIMIT,
    schema: { body: captchaVerifySchema, response: { 200: okSchema } },
  }, async (request, reply) => {
    const success = await captcha.verify(request.body['g-recaptcha-response'], request.ip);
    if (success && gate.enabled) await gate.issue(request, reply);
    return { success };
  });
}
