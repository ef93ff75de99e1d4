import type { Database, Tx } from '../../../db/database.js';

/** Settings operators edit in the console; a row overrides the configured value of the same meaning. */
export const OPERATOR_SETTING_KEYS = ['documentationUrl', 'paypalReceiverEmail'] as const;
export type OperatorSettingKey = (typeof OPERATOR_SETTING_KEYS)[number];
export type OperatorOverrides = Partial<Record<OperatorSettingKey, string>>;

export async function readOverrides(db: Database | Tx): Promise<OperatorOverrides> {
  const rows = await db.selectFrom('settings').select(['key', 'value']).where('key', 'in', [...OPERATOR_SETTING_KEYS]).execute();
  const out: OperatorOverrides = {};
  for (const r of rows) if (typeof r.value === 'string') out[r.key as OperatorSettingKey] = r.value;
  return out;
}
