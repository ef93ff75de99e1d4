import { ERRORS, type ErrorCode } from '@cellport/shared';
import { checkCredentialsResponseSchema, credentialsSchema, okSchema, signInFormSchema, type CheckCredentialsResponse } from '@cellport/shared/schemas/auth';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { safeRedirect } from '../../lib/safe-redirect.js';
import type { AuthService, CredentialOutcome } from './auth.service.js';
import type { CaptchaGate } from './captcha-gate.js';
import { guardedAttempt } from './sign-in-guard.js';
import { AUTH_BODY_LIMIT, authRateLimit, formErrorHandler, formRateLimit, formFields, languageOf } from './http.js';


/** The failure code of an outcome, or null when the credentials are good. */
function failureCode(outcome: CredentialOutcome): ErrorCode | null {
  switch (outcome.kind) {
    case 'not_found': return 'ACCOUNT_NOT_FOUND';
    case 'wrong_password': return 'WRONG_PASSWORD';
    case 'deactivated': return 'ACCOUNT_DEACTIVATED';
    case 'unverified': return 'EMAIL_NOT_VERIFIED';
    case 'code_required': return 'CODE_REQUIRED';
    case 'wrong_code': return 'WRONG_CODE';
    case 'ok': return null;
  }
}

/** The check-credentials answer of spec §7/§8. A missing 2FA code is not an error there: use2fa tells the form. */
function credentialsBody(outcome: CredentialOutcome): CheckCredentialsResponse {
  const code = outcome.kind === 'code_required' ? null : failureCode(outcome);
  const body = { error: code ? ERRORS[code] : null, code, isActive: true, isVerified: true, use2fa: false };
  switch (outcome.kind) {
    case 'not_found': return { ...body, isActive: false, isVerified: false };
    case 'deactivated': return { ...body, isActive: false, isVerified: outcome.isVerified, use2fa: outcome.use2fa };
    case 'unverified': return { ...body, isVerified: false, use2fa: outcome.use2fa };
    case 'code_required': case 'wrong_code': return { ...body, use2fa: true };
    case 'ok': return { ...body, use2fa: outcome.use2fa, ...(outcome.recovery ? { recoveryCodesLeft: outcome.recovery.left } : {}) };
    case 'wrong_password': return body;
  }
}

/** Where a failed form sign-in goes back to: the sign-in page with the error, keeping the return address. */
function signInPage(request: FastifyRequest, code: ErrorCode): string {
  const fields = formFields(request.body);
  const query = new URLSearchParams({ error: code });
  if (fields.redirect) query.set('redirect', safeRedirect(fields.redirect));
  return `/${languageOf(fields.language)}/sign-in?${query.toString()}`;
}

/** Credential check, the native sign-in form and sign-out. */
export function registerSignInRoutes(app: App, ctx: AppContext, auth: AuthService, gate: CaptchaGate): void {
  const limit = authRateLimit(ctx.config);

  app.post('/api/v1/check-credentials', {
    config: limit, bodyLimit: AUTH_BODY_LIMIT,
    schema: { body: credentialsSchema, response: { 200: checkCredentialsResponseSchema, 404: checkCredentialsResponseSchema } },
  }, async (request, reply) => {
    const credentials = request.body;
    const outcome = await guardedAttempt(request, credentials.login, auth, gate, () => auth.checkCredentials(credentials, request.ip));
    return reply.status(outcome.kind === 'not_found' ? 404 : 200).send(credentialsBody(outcome));
  });

  app.post('/signin', {
    config: formRateLimit(ctx.config), bodyLimit: AUTH_BODY_LIMIT,
    errorHandler: formErrorHandler(signInPage),
  }, async (request, reply) => {
    const parsed = signInFormSchema.safeParse(formFields(request.body));
    if (!parsed.success) throw new AppError('VALIDATION');
    const outcome = await guardedAttempt(request, parsed.data.login, auth, gate, () => auth.signIn(parsed.data, request.ip));
    const code = failureCode(outcome);
    if (code || outcome.kind !== 'ok') return reply.redirect(signInPage(request, code ?? 'INTERNAL'), 303);
    // A new session id at every sign-in (no fixation); an older session of this browser is ended.
    if (request.user) await ctx.sessions.revoke([request.user.sessionId]);
    ctx.sessions.setCookie(reply, await ctx.sessions.create(outcome.userId, request));
    return reply.redirect(safeRedirect(parsed.data.redirect), 303);
  });

  const signOut = async (request: FastifyRequest) => {
    if (request.user) await ctx.sessions.revoke([request.user.sessionId]);
  };

  app.post('/signout', {
    config: formRateLimit(ctx.config), bodyLimit: AUTH_BODY_LIMIT,
    errorHandler: formErrorHandler((request, code) => `/${languageOf(formFields(request.body).language)}/sign-in?error=${code}`),
  }, async (request, reply) => {
    await signOut(request);
    ctx.sessions.clearCookie(reply);
    return reply.redirect(`/${languageOf(formFields(request.body).language)}/sign-in`, 303);
  });

  app.post('/api/v1/sign-out', {
    config: limit, bodyLimit: AUTH_BODY_LIMIT,
    schema: { response: { 200: okSchema } },
  }, async (request, reply) => {
    await signOut(request);
    ctx.sessions.clearCookie(reply);
    return { success: true };
  });
}
