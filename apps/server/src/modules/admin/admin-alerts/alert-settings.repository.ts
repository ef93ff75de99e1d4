import type { OperatorAlertSettings, OperatorAlertSettingsPatch } from '@cellport/shared/schemas/admin/alerts';
import type { Database, Tx } from '../../../db/database.js';

/** An operator's channels for the farm's alerts (operator_alert_settings; no row: e-mail and Telegram on). */
export class AlertSettingsRepository {
  constructor(private readonly db: Database) {}

  async get(userId: string, tx: Tx | Database = this.db): Promise<OperatorAlertSettings> {
    const [row, link] = await Promise.all([
      tx.selectFrom('operator_alert_settings').select(['email', 'telegram']).where('user_id', '=', userId).executeTakeFirst(),
      tx.selectFrom('telegram_links').select('user_id').where('user_id', '=', userId).executeTakeFirst(),
    ]);
    return { email: row?.email ?? true, telegram: row?.telegram ?? true, telegramLinked: Boolean(link) };
  }

  /** Saves what the patch changes and returns the settings before and after (for the audit log). */
  async update(userId: string, patch: OperatorAlertSettingsPatch): Promise<{ before: OperatorAlertSettings; after: OperatorAlertSettings }> {
    return this.db.transaction().execute(async (tx) => {
      const before = await this.get(userId, tx);
      const email = patch.email ?? before.email;
      const telegram = patch.telegram ?? before.telegram;
      await tx.insertInto('operator_alert_settings').values({ user_id: userId, email, telegram })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ email, telegram })).execute();
      return { before, after: { ...before, email, telegram } };
    });
  }
}
