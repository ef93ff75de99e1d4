import { accountPasswordSchema, okSchema, profileSchema, totpCodeSchema } from '@cellport/shared/schemas/auth';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App, AppContext } from '../../context.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { AccountSettingsRepository } from './account-settings.repository.js';
import { AccountSettingsService } from './account-settings.service.js';

const meSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  company_name: z.string(),
  language: z.string(),
  use2fa: z.boolean(),
  isVerified: z.boolean(),
  role: z.enum(['customer', 'admin']),
});
const sessionSchema = z.object({
  id: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
const twoFactorSetupSchema = z.object({ secret: z.string(), otpauthUrl: z.string(), qrSvg: z.string() });
// Session ids are sha256 hex digests of the cookie token.
const sessionParams = z.object({ id: z.string().regex(/^[0-9a-f]{64}$/) });

/** The signed-in user's own settings: GET/PATCH /me, password, two-factor, sessions. */
export function registerAccountSettings(app: App, ctx: AppContext): void {
  const service = new AccountSettingsService(new AccountSettingsRepository(ctx.db), ctx.sessions);
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
    { onRequest: requireUser, config: limited, schema: { body: totpCodeSchema, response: { 200: meSchema } } },
    async (request) => service.enableTwoFactor(currentUser(request).userId, request.body.code));

  app.post('/api/v1/me/2fa/disable',
    { onRequest: requireUser, config: limited, schema: { body: totpCodeSchema, response: { 200: meSchema } } },
    async (request) => service.disableTwoFactor(currentUser(request).userId, request.body.code));

  app.get('/api/v1/me/sessions', { onRequest: requireUser, schema: { response: { 200: z.array(sessionSchema) } } },
    async (request) => {
      const { userId, sessionId } = currentUser(request);
      return service.listSessions(userId, sessionId);
    });

  app.delete('/api/v1/me/sessions/:id',
    { onRequest: requireUser, schema: { params: sessionParams, response: { 200: okSchema } } },
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
}
