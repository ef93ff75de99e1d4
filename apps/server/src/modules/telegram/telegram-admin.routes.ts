import {
  adminTelegramPatchRequestSchema, adminTelegramResponseSchema, type AdminTelegramResponse,
} from '@cellport/shared/schemas/admin/telegram';
import type { App } from '../../context.js';
import { actorOf, adminRateLimits } from '../../lib/console-http.js';
import type { AuditLog } from '../audit/index.js';
import type { TelegramBot } from './telegram-bot.js';
import type { StoredTelegramSettings } from './telegram.repository.js';

const hint = (token: string | null) => (token ? `${token.split(':')[0]}:…${token.slice(-4)}` : null);

/**
 * Console → Settings → Telegram bot: the token (write-only, stored sealed under the server secret) and long polling
 * or webhook. A change is audited without the token, and every instance rebuilds its bot (bus).
 */
export function registerTelegramAdminRoutes(admin: App, audit: AuditLog, bot: TelegramBot): void {
  const view = async (): Promise<AdminTelegramResponse> => {
    const s = await bot.readSettings();
    const state = await bot.state();
    return {
      source: s.fromConsole ? 'console' : s.token ? 'env' : 'none',
      tokenHint: hint(s.token), mode: s.mode, sandbox: state.sandbox, botUsername: state.username,
    };
  };

  admin.get('/telegram', { config: adminRateLimits.read, schema: { response: { 200: adminTelegramResponseSchema } } }, async () => view());

  admin.patch('/telegram', {
    config: adminRateLimits.write, schema: { body: adminTelegramPatchRequestSchema, response: { 200: adminTelegramResponseSchema } },
  }, async (request) => {
    const body = request.body;
    const shown = (s: StoredTelegramSettings) => ({ tokenSet: Boolean(s.token), mode: s.mode ?? null });
    // Every instance rebuilds its bot after the commit (TelegramBot.changeSettings).
    await bot.changeSettings(body, actorOf(request).adminId, (tx, before, next) => audit.record(tx, actorOf(request), {
      action: 'settings.telegram', targetType: 'settings', targetId: null, before: shown(before),
      after: { ...shown(next), tokenHint: body.token ? hint(body.token) : undefined },
    }));
    return view();
  });
}
