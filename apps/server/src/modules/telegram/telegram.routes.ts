import { timingSafeEqual } from 'node:crypto';
import { successResponseSchema } from '@cellport/shared/schemas/notifications';
import {
  telegramLinkResponseSchema, telegramPreferencesRequestSchema, telegramStatusSchema,
} from '@cellport/shared/schemas/telegram';
import type { App, AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { CUSTOMER_API_SECURITY } from '../openapi/index.js';
import { TELEGRAM_WEBHOOK_PATH, type TelegramBot } from './telegram-bot.js';
import type { TelegramNotifications } from './telegram-notifications.js';
import { registerTelegramSandboxRoutes } from './telegram-sandbox.routes.js';
import { botText } from './telegram-texts.js';
import type { TelegramService } from './telegram.service.js';

/**
 * Telegram for customers (issue 16, item 2): link status, a one-time deep link, unlink, the notification kinds;
 * the bot's webhook. The bot is started by the root (app.ts) in every role; the notifications a linked chat wants
 * leave from the background (background.ts).
 */
export function registerTelegram(
  app: App, ctx: AppContext,
  { telegram, telegramBot, telegramNotifications }: { telegram: TelegramService; telegramBot: TelegramBot; telegramNotifications: TelegramNotifications },
): void {
  app.decorate('telegram', { bot: telegramBot, notifications: telegramNotifications });

  const auth = { onRequest: requireUser, config: { apiKey: true } };
  const schema = { tags: ['telegram'], security: CUSTOMER_API_SECURITY };
  const noStore = (reply: { header(name: string, value: string): unknown }) => reply.header('cache-control', 'no-store');

  app.get('/api/v1/telegram', { ...auth, schema: { ...schema, response: { 200: telegramStatusSchema } } }, async (request, reply) => {
    noStore(reply);
    return telegram.status(currentUser(request).userId, await telegramBot.state());
  });

  app.post('/api/v1/telegram/link', {
    ...auth, config: { apiKey: true, rateLimit: { max: 20, timeWindow: '1 minute' } },
    schema: { ...schema, response: { 200: telegramLinkResponseSchema } },
  }, async (request, reply) => {
    noStore(reply);
    const bot = await telegramBot.state();
    if (!bot.available) throw new AppError('SERVICE_UNAVAILABLE', 503, 'The operator has not set up a Telegram bot yet.');
    if (!bot.username) throw new AppError('SERVICE_UNAVAILABLE', 503, 'Telegram cannot be reached right now. Please try again in a few minutes.');
    return telegram.createLink(currentUser(request).userId, bot.username);
  });

  app.delete('/api/v1/telegram', { ...auth, schema: { ...schema, response: { 200: successResponseSchema } } }, async (request) => {
    const was = await telegram.unlink(currentUser(request).userId);
    const gateway = telegramBot.current();
    if (was && gateway) {
      await gateway.send(was.chatId, botText(was.language, 'unlinked'))
        .catch((err: unknown) => ctx.log.warn({ err }, 'telegram: telling the chat it was unlinked failed'));
    }
    return { success: true };
  });

  app.put('/api/v1/telegram/preferences', {
    ...auth, schema: { ...schema, body: telegramPreferencesRequestSchema, response: { 200: telegramStatusSchema } },
  }, async (request) => {
    const { userId } = currentUser(request);
    await telegram.setKinds(userId, request.body.kinds);
    return telegram.status(userId, await telegramBot.state());
  });

  registerTelegramSandboxRoutes(app, ctx, { bot: telegramBot, telegram });

  // Telegram's calls in webhook mode, proven by the secret token it was given with setWebhook.
  app.post(TELEGRAM_WEBHOOK_PATH, {
    config: { crossSite: true, rateLimit: { max: 600, timeWindow: '1 minute' } }, schema: { hide: true },
  }, async (request, reply) => {
    const expected = telegramBot.webhookSecret();
    const given = request.headers['x-telegram-bot-api-secret-token'];
    if (!expected || typeof given !== 'string' || given.length !== expected.length
      || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) {
      throw new AppError('FORBIDDEN');
    }
    await telegramBot.handleWebhook(request.body);
    return reply.send({ ok: true });
  });
}

declare module 'fastify' {
  interface FastifyInstance { telegram: { bot: TelegramBot; notifications: TelegramNotifications } }
}
