import {
  meSchema, recoveryCodesSchema, regenerateRecoveryCodesSchema, sessionParamsSchema, sessionsResponseSchema,
  signOutEverywhereSchema, twoFactorEnabledSchema, twoFactorSetupSchema,
} from '@cellport/shared/schemas/account';
import { accountPasswordSchema, okSchema, profileSchema, secondFactorSchema, totpCodeSchema } from '@cellport/shared/schemas/auth';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context.js';
import { currentUser, requireUser, type Sessions } from '../../plugins/session.js';
import type { AccessHolders } from '../auth/index.js';
import type { AccountSettingsService } from './account-settings.service.js';

/** What the account's routes use: its settings, its sessions, and what signing out everywhere takes with it. */
export interface AccountsRouteServices extends AccessHolders {
  accountSettings: AccountSettingsService;
  sessions: Sessions;
}

/** The signed-in user's own settings: GET/PATCH /me, password, two-factor, sessions. */
export function registerAccounts(app: App, ctx: AppContext, services: AccountsRouteServices): void {
  const service = services.accountSettings;
  // Password and two-factor writes are guessing targets: limited per signed-in user (and per IP for the rest).
  const limited = {
    rateLimit: {
      max: ctx.config.RATE_LIMIT_AUTH_PER_MINUTE,
      timeWindow: '1 minute',
      keyGenerator: (request: FastifyRequest) => request.user?.userId ?? request.ip,
    },
  };

  app.get('/api/v1/me', { onRequest: requireUser, schema: { response: { 200: meSchema } } },
    async (request) => service.me(currentUser(request).userId));

  app.patch('/api/v1/me', { onRequest: requireUser, schema: { body: profileSchema, response: { 200: meSchema } } },
    async (request) => service.updateProfile(currentUser(request).userId, request.body));

  app.post('/api/v1/me/password',
    { onRequest: requireUser, config: limited, schema: { body: accountPasswordSchema, response: { 200: okSchema } } },
    async (request) => {
      const { userId, sessionId } = currentUser(request);
      await service.changePassword(userId, sessionId, request.body.current, request.body.password);
      return { success: true };
    });

  app.post('/api/v1/me/2fa/setup',
    { onRequest: requireUser, config: limited, schema: { response: { 200: twoFactorSetupSchema } } },
    async (request) => service.setupTwoFactor(currentUser(request).userId));

  app.post('/api/v1/me/2fa/enable',
    { onRequest: requireUser, config: limited, schema: { body: totpCodeSchema, response: { 200: twoFactorEnabledSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store'); // the recovery codes are in this answer
      return service.enableTwoFactor(currentUser(request).userId, request.body.code);
    });

  app.post('/api/v1/me/2fa/disable',
    { onRequest: requireUser, config: limited, schema: { body: secondFactorSchema, response: { 200: meSchema } } },
    async (request) => service.disableTwoFactor(currentUser(request).userId, request.body.code));

  app.post('/api/v1/me/2fa/recovery-codes',
    { onRequest: requireUser, config: limited, schema: { body: regenerateRecoveryCodesSchema, response: { 200: recoveryCodesSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return service.regenerateRecoveryCodes(currentUser(request).userId, request.body);
    });

  app.get('/api/v1/me/sessions', { onRequest: requireUser, schema: { response: { 200: sessionsResponseSchema } } },
    async (request) => {
      const { userId, sessionId } = currentUser(request);
      return service.listSessions(userId, sessionId);
    });

  app.delete('/api/v1/me/sessions/:id',
    { onRequest: requireUser, schema: { params: sessionParamsSchema, response: { 200: okSchema } } },
    async (request) => {
      await service.endSession(currentUser(request).userId, request.params.id);
      return { success: true };
    });

  app.post('/api/v1/me/sessions/revoke-others', { onRequest: requireUser, schema: { response: { 200: okSchema } } },
    async (request) => {
      const { userId, sessionId } = currentUser(request);
      await service.endOtherSessions(userId, sessionId);
      return { success: true };
    });

  // Sign out everywhere (issue 26, item 9): every session, this one too, and by default the API keys and the Telegram
  // link, which a password change alone leaves working.
  app.post('/api/v1/me/sessions/revoke-all',
    { onRequest: requireUser, config: limited, schema: { body: signOutEverywhereSchema, response: { 200: okSchema } } },
    async (request, reply) => {
      const { userId } = currentUser(request);
      if (request.body.revokeAccess ?? true) {
        const keys = await services.apiKeys.revokeAll(userId);
        const chat = await services.telegram.unlink(userId);
        request.log.info({ userId, keys, telegram: chat !== null }, 'signed out everywhere: API keys revoked and Telegram unlinked');
      }
      await services.sessions.revokeAllForUser(userId);
      services.sessions.clearCookie(reply);
      return { success: true };
    });
}
