import { createHash } from 'node:crypto';
import { devTelegramStartRequestSchema, devTelegramStartResponseSchema } from '@cellport/shared/schemas/dev';
import type { App, AppContext } from '../../context.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { isLocalClient } from '../../lib/local-client.js';
import type { TelegramBot } from './telegram-bot.js';
import type { TelegramService } from './telegram.service.js';

/**
 * "Simulate the bot" (issue 27, item 12): without a bot token nothing reaches Telegram, so a customer could start
 * linking on the Account page but never press Start. The dev mailbox page sends the link here and the sandbox bot
 * answers "/start <token>" exactly as the real bot would (the same TelegramService.answer), from a sandbox chat.
 * Never in production, only while the sandbox bot runs, and only for the person at this machine or an operator
 * (as the outbox): the link is the customer's own secret, but a stranger must not find the sandbox open.
 */
export function registerTelegramSandboxRoutes(app: App, ctx: AppContext, deps: { bot: TelegramBot; telegram: TelegramService }): void {
  app.post('/api/v1/dev/telegram/start', {
    config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
    schema: { hide: true, body: devTelegramStartRequestSchema, response: { 200: devTelegramStartResponseSchema } },
  }, async (request) => {
    if (ctx.config.isProduction || !deps.bot.current()?.sandbox) throw notFound();
    if (!(ctx.config.DEV_OUTBOX_PUBLIC === true || isLocalClient(request.socket.remoteAddress) || request.user?.role === 'admin')) {
      throw new AppError('FORBIDDEN', 403, 'The sandbox bot is served only to this machine and to signed-in operators');
    }
    const token = tokenOf(request.body.link);
    if (!token) throw new AppError('VALIDATION', 400, 'Paste the link the Account page shows after "Link Telegram" (https://t.me/…?start=…).');
    // One sandbox chat per link, named as the person asked (or a sandbox name), as a Telegram chat would be.
    const chatId = `sandbox-${createHash('sha256').update(token).digest('hex').slice(0, 12)}`;
    const reply = await deps.telegram.answer({ chatId, chatName: request.body.chatName || '@sandbox_user', text: `/start ${token}` });
    return { reply: reply ?? '' };
  });
}

/** The token of a deep link `https://t.me/<bot>?start=<token>`, or the token itself. */
function tokenOf(link: string): string | null {
  const trimmed = link.trim();
  let token = trimmed;
  if (/^https?:\/\//i.test(trimmed)) {
    try { token = new URL(trimmed).searchParams.get('start') ?? ''; } catch { return null; }
  }
  return /^[A-Za-z0-9_-]{8,128}$/.test(token) ? token : null;
}
