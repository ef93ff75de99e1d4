import { FALLBACK_LANGUAGE, isLanguage } from '@cellport/shared';
import {
  notificationParamsSchema, notificationSchema, notificationsResponseSchema, successResponseSchema, unsubscribeParamsSchema,
} from '@cellport/shared/schemas/notifications';
import type { App, AppContext } from '../../context.js';
import { notFound } from '../../lib/app-error.js';
import { conditionalPoll } from '../../lib/poll-versions.js';
import { readerLanguage } from '../../lib/request-language.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import type { NotificationEmails } from './notification-emails.js';
import type { NotificationsRepository } from './notifications.repository.js';
import { unsubscribePage } from './unsubscribe-page.js';
import { userIdFromUnsubscribeToken } from './unsubscribe-token.js';

/** The bell: list (polled every 3 s, cheap when unchanged), mark read, read all; and the unsubscribe link. */
export function registerNotifications(
  app: App, ctx: AppContext,
  { notificationsRepository: repository, notificationEmails: emails }: { notificationsRepository: NotificationsRepository; notificationEmails: NotificationEmails },
): void {
  // Their e-mails leave from the background (background.ts: after each commit, and a sweep).
  app.decorate('notificationEmails', emails);

  app.get('/api/v1/notifications', {
    onRequest: requireUser,
    schema: { tags: ['notifications'], response: { 200: notificationsResponseSchema } },
  }, async (request, reply) => {
    const { userId } = currentUser(request);
    // The session came from the in-memory cache and the version from memory: an unchanged poll ends here.
    const version = await conditionalPoll(request, reply, ctx.pollVersions, 'notifications', userId);
    if (version === null) return reply;
    // The texts are in the reader's language: a client that switches language polls afresh (no If-None-Match).
    reply.header('vary', 'Accept-Language');
    return { version, data: await repository.latest(userId, undefined, await readerLanguage(request, ctx.languages, userId)) };
  });

  app.post('/api/v1/notifications/read-all', {
    onRequest: requireUser, schema: { tags: ['notifications'], response: { 200: successResponseSchema } },
  }, async (request) => {
    await repository.markAllRead(currentUser(request).userId);
    return { success: true };
  });

  app.get('/api/v1/notifications/:id', {
    onRequest: requireUser,
    schema: { tags: ['notifications'], params: notificationParamsSchema, response: { 200: notificationSchema } },
  }, async (request, reply) => {
    const { userId } = currentUser(request);
    const notification = await repository.markRead(userId, request.params.id, await readerLanguage(request, ctx.languages, userId));
    if (!notification) throw notFound();
    reply.header('cache-control', 'no-store');
    return notification;
  });

  // Opened from an e-mail: a GET that changes one thing only (consent off), idempotent, with a signed token.
  app.get('/api/v1/unsubscribe/:token', {
    config: { crossSite: true, rateLimit: { max: 30, timeWindow: '1 minute' } },
    schema: { hide: true, params: unsubscribeParamsSchema },
  }, async (request, reply) => {
    const userId = userIdFromUnsubscribeToken(request.params.token, ctx.config.secret);
    const stored = userId ? await repository.withdrawMarketingConsent(userId) : undefined;
    const language = isLanguage(stored) ? stored : FALLBACK_LANGUAGE;
    reply.code(stored !== undefined ? 200 : 404).type('text/html; charset=utf-8').header('cache-control', 'no-store');
    return unsubscribePage(language, stored !== undefined, `${ctx.config.publicUrl}/${language}`);
  });
}

declare module 'fastify' {
  interface FastifyInstance { notificationEmails: NotificationEmails }
}
