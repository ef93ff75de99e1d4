import {
  checkLoginRequestSchema, checkLoginResponseSchema, emailRequestSchema, okSchema, signUpRequestSchema, signUpResponseSchema,
  verifyEmailParamsSchema,
} from '@cellport/shared/schemas/auth';
import type { App, AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import type { AuthService } from './auth.service.js';
import type { CaptchaGate } from './captcha-gate.js';
import { AUTH_BODY_LIMIT, SIGN_UP_BODY_LIMIT, authRateLimit, formErrorHandler, formRateLimit, formFields, languageOf } from './http.js';

const TRUE_WORDS = new Set(['on', 'true', '1', 'yes']);

/** Sign-up (JSON and native form), the pre-check of login and name, and the e-mail confirmation link. */
export function registerSignUpRoutes(app: App, { config }: AppContext, auth: AuthService, gate: CaptchaGate): void {
  const limit = authRateLimit(config);

  app.post('/api/v1/check-login', {
    config: limit, bodyLimit: AUTH_BODY_LIMIT,
    schema: { body: checkLoginRequestSchema, response: { 200: checkLoginResponseSchema } },
  }, async (request) => {
    await auth.assertEmailFree(request.body.login);
    return { error: null };
  });

  app.post('/api/v1/signup', {
    config: limit, bodyLimit: SIGN_UP_BODY_LIMIT,
    schema: { body: signUpRequestSchema, response: { 200: signUpResponseSchema } },
  }, async (request) => {
    // Issue 26: sign-up had no captcha, so a script could make accounts (and send our mail) in bulk.
    await gate.require(request);
    return { error: null, email: await auth.signUp(request.body) };
  });

  // The native form: same fields, answered with redirects so it works without JavaScript.
  app.post('/signup', {
    config: formRateLimit(config), bodyLimit: SIGN_UP_BODY_LIMIT,
    errorHandler: formErrorHandler((request, code) => `/${languageOf(formFields(request.body).language)}/sign-up?error=${code}`),
  }, async (request, reply) => {
    const fields = formFields(request.body);
    const parsed = signUpRequestSchema.safeParse({
      ...fields,
      language: languageOf(fields.language),
      marketing: TRUE_WORDS.has((fields.marketing ?? '').toLowerCase()),
    });
    if (!parsed.success) throw new AppError('VALIDATION');
    await gate.require(request);
    const email = await auth.signUp(parsed.data);
    return reply.redirect(`/${parsed.data.language}/confirm-email/${encodeURIComponent(email)}`, 303);
  });

  app.get('/api/v1/verify-email/:token', {
    config: limit,
    schema: { params: verifyEmailParamsSchema },
    errorHandler: formErrorHandler((_request, code) => `/en/sign-in?error=${code}`),
  }, async (request, reply) => {
    const { token } = request.params;
    const result = token.length >= 10 && token.length <= 200 ? await auth.verifyEmail(token) : { ok: false as const, language: 'en' };
    const lng = languageOf(result.language);
    if (!result.ok) return reply.redirect(`/${lng}/sign-in?error=TOKEN_INVALID`, 303);
    return reply.redirect(`/${lng}/email-verified/${encodeURIComponent(result.email)}`, 303);
  });

  app.post('/api/v1/send-confirmation-email-link', {
    config: limit, bodyLimit: AUTH_BODY_LIMIT,
    schema: { body: emailRequestSchema, response: { 200: okSchema } },
  }, async (request) => {
    await auth.resendConfirmation(request.body.login, request.body.language);
    return { success: true };
  });
}
