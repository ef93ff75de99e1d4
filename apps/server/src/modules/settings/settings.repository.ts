import type { Database, Tx } from '../../db/database.js';
import { OPERATOR_SETTING_KEYS, overridesOf, type OperatorOverrides, type OperatorSettingKey } from './operator-settings.js';

/** The operator's overrides, one row per key of the `settings` table (a row overrides the configured value). */
export class SettingsRepository {
  constructor(private readonly db: Database) {}

  /** One transaction for the console's change: it hands the Tx on to the audit log. */
  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async overrides(q: Database | Tx = this.db): Promise<OperatorOverrides> {
    return overridesOf(await q.selectFrom('settings').select(['key', 'value']).where('key', 'in', [...OPERATOR_SETTING_KEYS]).execute());
  }

  async set(tx: Tx, key: OperatorSettingKey, value: unknown, adminId: string): Promise<void> {
    await tx.insertInto('settings').values({ key, value: JSON.stringify(value), updated_by: adminId })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_by: adminId, updated_at: new Date() }))
      .execute();
  }

  /** Back to the configured value. */
  async remove(tx: Tx, key: OperatorSettingKey): Promise<void> {
    await tx.deleteFrom('settings').where('key', '=', key).execute();
  }
}
