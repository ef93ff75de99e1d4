import { outboxQuerySchema, outboxResponseSchema } from '@cellport/shared/schemas/dev';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { isLocalClient } from '../../lib/local-client.js';
import type { DevOutboxRepository } from './dev-outbox.repository.js';

const OUTBOX_LIMIT = 50;

/**
 * Development helpers, never in production. The outbox lets a person (and the browser tests) read the e-mails the
 * product sent without any mail server: GET /api/v1/dev/outbox?to=EMAIL, newest first. It holds password-reset
 * and sign-up links, and the server listens on 0.0.0.0 by default, so it is served only to local clients (isLocalClient) and
 * signed-in operators, unless DEV_OUTBOX_PUBLIC (unsafe) opens it to the network.
 */
export function registerDev(app: App, { config }: AppContext, outbox: DevOutboxRepository): void {
  app.get('/api/v1/dev/outbox', {
    config: { rateLimit: { max: Math.max(config.RATE_LIMIT_AUTH_PER_MINUTE, 120), timeWindow: '1 minute' } },
    schema: {
      querystring: outboxQuerySchema,
      response: { 200: outboxResponseSchema },
    },
  }, async (request) => {
    if (config.isProduction) throw new AppError('NOT_FOUND');
    if (!mayReadOutbox(request)) {
      throw new AppError('FORBIDDEN', 403, 'The development outbox is served only to this machine and to signed-in operators');
    }
    const rows = await outbox.latest(OUTBOX_LIMIT, request.query.to?.trim().toLowerCase() || undefined);
    return rows.map((r) => ({ to: r.to_email, subject: r.subject, text: r.text, html: r.html, createdAt: r.created_at.toISOString() }));
  });

  function mayReadOutbox(request: FastifyRequest): boolean {
    return config.DEV_OUTBOX_PUBLIC === true || isLocalClient(request.socket.remoteAddress) || request.user?.role === 'admin';
  }
}
