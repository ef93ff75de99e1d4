import type { AdminSettingsPatchRequest, AdminSettingsResponse } from '@cellport/shared/schemas/admin/settings';
import type { AppContext } from '../../context.js';
import { isSandboxKey } from '../../integrations/bitcoin/sandbox-key.js';
import { payPalReceiver } from '../../lib/operator-settings-cache.js';
import type { AuditActor, AuditLog } from '../audit/index.js';
import { type OperatorSettingKey, sellerOf } from './operator-settings.js';
import type { SettingsRepository } from './settings.repository.js';

/** Provider modes and whether keys are set (booleans only), plus the operator-editable settings. */
export class SettingsAdminService {
  constructor(private readonly ctx: AppContext, private readonly audit: AuditLog, private readonly repo: SettingsRepository) {}

  async get(): Promise<AdminSettingsResponse> {
    const c = this.ctx.config;
    const o = await this.repo.overrides();
    return {
      card: { mode: c.cardProvider, secretKeySet: !!c.STRIPE_SECRET_KEY, publishableKeySet: !!c.STRIPE_PUBLISHABLE_KEY, webhookSecretSet: !!c.STRIPE_WEBHOOK_SECRET },
      paypal: { mode: c.paypal.mode, receiverEmail: payPalReceiver(o, this.ctx), receiverOverridden: o.paypalReceiverEmail !== undefined },
      btc: { xpubSet: !!c.BTC_XPUB, sandboxKey: !c.BTC_XPUB || isSandboxKey(c.BTC_XPUB) },
      usdt: { xpubSet: !!c.TRON_XPUB, sandboxKey: !c.TRON_XPUB || isSandboxKey(c.TRON_XPUB), apiKeySet: !!c.TRONGRID_API_KEY },
      captcha: { provider: c.CAPTCHA_PROVIDER, siteKeySet: !!c.RECAPTCHA_SITE_KEY, secretKeySet: !!c.RECAPTCHA_SECRET_KEY },
      smtpSet: !!c.SMTP_URL,
      documentationUrl: o.documentationUrl ?? c.DOCUMENTATION_URL ?? null,
      replacementAfterMinutes: o.replacementAfterMinutes ?? c.REPLACEMENT_AFTER_MINUTES,
      seller: sellerOf(o),
    };
  }

  async patch(actor: AuditActor, req: AdminSettingsPatchRequest): Promise<AdminSettingsResponse> {
    await this.repo.transaction(async (tx) => {
      const before = await this.repo.overrides(tx);
      for (const key of Object.keys(req) as OperatorSettingKey[]) {
        const value = req[key];
        if (value === undefined) continue;
        if (value === null || value === '') await this.repo.remove(tx, key);
        else await this.repo.set(tx, key, value, actor.adminId);
      }
      await this.audit.record(tx, actor, { action: 'settings.update', targetType: 'settings', targetId: null, before, after: await this.repo.overrides(tx) });
    });
    // After the commit, so no instance reloads the old values.
    await this.ctx.operatorSettings.changed();
    return this.get();
  }
}
