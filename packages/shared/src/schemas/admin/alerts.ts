import * as z from 'zod/mini';

// Operator console, alerts (issue 28, item 8): what tells the operators of their farm's trouble, and how each
// operator wants to hear of it. The bell of the console always shows them.

/** The notification keys (locales/<lng>/notifications.json) that are operators' alerts. */
export const OPERATOR_ALERT_KEYS = [
  'operator_modems_down', 'operator_modems_up', 'operator_replacement_queued', 'operator_webhook_disabled',
] as const;
export type OperatorAlertKey = (typeof OPERATOR_ALERT_KEYS)[number];

/** GET and PATCH /admin/alerts: the signed-in operator's own choice of channels beside the bell. */
export const operatorAlertSettingsSchema = z.object({
  email: z.boolean(),
  telegram: z.boolean(),
  /** Whether this operator has linked a Telegram chat (Account → Telegram); without one, `telegram` reaches nobody. */
  telegramLinked: z.boolean(),
});
export type OperatorAlertSettings = z.infer<typeof operatorAlertSettingsSchema>;
export const operatorAlertSettingsPatchSchema = z.object({ email: z.optional(z.boolean()), telegram: z.optional(z.boolean()) });
export type OperatorAlertSettingsPatch = z.infer<typeof operatorAlertSettingsPatchSchema>;
