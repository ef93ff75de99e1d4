/** Each operator's choice of channels for the farm's alerts (migration 2026_12_10_1000); no row: both on. */
export interface OperatorAlertSettingsTable { user_id: string; email: boolean; telegram: boolean }
export interface OperatorAlertsTables { operator_alert_settings: OperatorAlertSettingsTable }
