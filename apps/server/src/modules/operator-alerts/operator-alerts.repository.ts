import type { OperatorAlertSettings } from '@cellport/shared/schemas/admin/alerts';
import type { Database, Tx } from '../../db/database.js';

/** An operator's channels for the farm's alerts (operator_alert_settings; no row: e-mail and Telegram on). */
export class OperatorAlertsRepository {
  constructor(private readonly db: Database) {}

  /** One transaction for the service's steps: it hands the Tx on to the audit log. */
  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async get(userId: string, q: Tx | Database = this.db): Promise<OperatorAlertSettings> {
    const [row, link] = await Promise.all([
      q.selectFrom('operator_alert_settings').select(['email', 'telegram']).where('user_id', '=', userId).executeTakeFirst(),
      q.selectFrom('telegram_links').select('user_id').where('user_id', '=', userId).executeTakeFirst(),
    ]);
    return { email: row?.email ?? true, telegram: row?.telegram ?? true, telegramLinked: Boolean(link) };
  }

  async save(tx: Tx, userId: string, channels: { email: boolean; telegram: boolean }): Promise<void> {
    await tx.insertInto('operator_alert_settings').values({ user_id: userId, ...channels })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(channels)).execute();
  }
}
