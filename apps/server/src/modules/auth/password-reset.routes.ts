import { changePasswordSchema, emailRequestSchema, okSchema, resetLinkParamsSchema } from '@cellport/shared/schemas/auth';
import type { App, AppContext } from '../../context.js';
import type { AuthService } from './auth.service.js';
import { AUTH_BODY_LIMIT, authRateLimit } from './http.js';

/**
 * What else opens an account besides its password: API keys and the Telegram link. A password reset (and signing
 * out everywhere, in accounts) can take them too (issue 26).
 */
export interface AccessHolders {
  apiKeys: { revokeAll(userId: string): Promise<number> };
  telegram: { unlink(userId: string): Promise<unknown> };
}

/** Forgotten password: ask for a link by e-mail, then set a new password with the link's token. */
export function registerPasswordResetRoutes(
  app: App, { config, log }: AppContext, { auth, apiKeys, telegram }: AccessHolders & { auth: AuthService },
): void {
  const limit = authRateLimit(config);

  app.post('/api/v1/send-reset-password-token-to-email', {
    config: limit, bodyLimit: AUTH_BODY_LIMIT,
    schema: { body: emailRequestSchema, response: { 200: okSchema } },
  }, async (request) => {
    await auth.requestPasswordReset(request.body.login, request.body.language);
    return { success: true };
  });

  // The reset page asks on load whether its link still works: 200, or 410 RESET_LINK_USED / RESET_LINK_EXPIRED /
  // TOKEN_INVALID. Read-only: it never uses the link up.
  app.get('/api/v1/reset-password/:token', {
    config: limit,
    schema: { params: resetLinkParamsSchema, response: { 200: okSchema } },
  }, async (request) => {
    await auth.assertResetLinkLive(request.params.token);
    return { success: true };
  });

  app.post('/api/v1/change-password', {
    config: limit, bodyLimit: AUTH_BODY_LIMIT,
    schema: { body: changePasswordSchema, response: { 200: okSchema } },
  }, async (request) => {
    const userId = await auth.resetPassword(request.body.token, request.body.password);
    // Whoever knew the old password may have made keys or linked a chat: the reset can take those too (issue 26).
    if (request.body.revokeAccess) {
      const keys = await apiKeys.revokeAll(userId);
      const chat = await telegram.unlink(userId);
      log.info({ userId, keys, telegram: chat !== null }, 'password reset: API keys revoked and Telegram unlinked');
    }
    return { success: true };
  });
}
