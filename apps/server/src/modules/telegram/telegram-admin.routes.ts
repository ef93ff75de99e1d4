import {
  adminTelegramPatchRequestSchema, adminTelegramResponseSchema, type AdminTelegramResponse,
} from '@cellport/shared/schemas/admin/telegram';
import type { App, AppContext } from '../../context.js';
import { actorOf, adminRateLimits } from '../admin/admin-http.js';
import type { AuditLog } from '../admin/audit/audit.service.js';
import type { WebhookSecretBox } from '../webhooks/index.js';
import { TELEGRAM_SETTINGS_CHANGED, TELEGRAM_SETTINGS_KEY, type StoredTelegramSettings, type TelegramBot } from './telegram-bot.js';

const hint = (token: string | null) => (token ? `${token.split(':')[0]}:…${token.slice(-4)}` : null);

/**
 * Console → Settings → Telegram bot: the token (write-only, stored sealed under the server secret) and long polling
 * or webhook. A change is audited without the token, and every instance rebuilds its bot (bus).
 */
export function registerTelegramAdminRoutes(admin: App, ctx: AppContext, audit: AuditLog, bot: TelegramBot, box: WebhookSecretBox): void {
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
    await ctx.db.transaction().execute(async (tx) => {
      const row = await tx.selectFrom('settings').select('value').where('key', '=', TELEGRAM_SETTINGS_KEY).forUpdate().executeTakeFirst();
      const before = (row?.value ?? {}) as StoredTelegramSettings;
      const next: StoredTelegramSettings = { ...before };
      if (body.token !== undefined) { if (body.token === null) delete next.token; else next.token = box.seal(body.token); }
      if (body.mode !== undefined) { if (body.mode === null) delete next.mode; else next.mode = body.mode; }
      const value = JSON.stringify(next);
      await tx.insertInto('settings').values({ key: TELEGRAM_SETTINGS_KEY, value, updated_by: actorOf(request).adminId })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_by: actorOf(request).adminId, updated_at: new Date() }))
        .execute();
      const shown = (s: StoredTelegramSettings) => ({ tokenSet: Boolean(s.token), mode: s.mode ?? null });
      await audit.record(tx, actorOf(request), {
        action: 'settings.telegram', targetType: 'settings', targetId: null, before: shown(before),
        after: { ...shown(next), tokenHint: body.token ? hint(body.token) : undefined },
      });
    });
    // After the commit: this instance and (NOTIFY) every other one rebuild their bot.
    await ctx.bus.publish(TELEGRAM_SETTINGS_CHANGED, {});
    return view();
  });
}
