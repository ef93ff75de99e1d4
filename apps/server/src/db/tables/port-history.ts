import type { ColumnType } from 'kysely';

type Health = 'online' | 'degraded' | 'offline';
type At = ColumnType<Date, Date | string | undefined, never>;

/** Each change of a modem's health, written by a trigger (migration 2026_12_10_0600): for uptime per port. */
export interface ModemHealthHistoryTable { modem_id: string; at: At; health_from: Health; health_to: Health }
/** Each new external IP of a modem, written by a trigger: the port card's IP history. */
export interface ModemIpHistoryTable { modem_id: string; at: At; ip: string }

export interface PortHistoryTables { modem_health_history: ModemHealthHistoryTable; modem_ip_history: ModemIpHistoryTable }
