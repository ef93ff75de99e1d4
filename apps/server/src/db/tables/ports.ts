import type { FingerprintPresetId } from '@cellport/shared/fingerprint-presets';
import type { HostFingerprintReport } from '@cellport/shared/schemas/host-protocol';
import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type ApplyStatusColumn = 'idle' | 'rotating' | 'applying' | 'failed';

export interface HostsTable {
  id: Generated<string>; name: string; address: string;
  /** sha256 of the host's traffic ingest key (issue 5); null until one is issued. */
  ingest_key_hash: ColumnType<string | null, string | null | undefined, string | null>;
  /** The agent's last heartbeat; null until it first connects. Silent for 60 s: offline. */
  last_seen_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  agent_version: ColumnType<string | null, string | null | undefined, string | null>;
  agent_started_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The gateway customers reach this host through (issue 18); null: direct, at its address. */
  gateway_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** What its agent last reported of fingerprint presets (issue 30, HostFingerprintReport); null: never (it cannot). */
  fingerprint: ColumnType<HostFingerprintReport | null, string | null | undefined, string | null>;
  /** The desired-state version its agent last reported serving (heartbeat); null: none reported yet. */
  state_version: ColumnType<string | null, string | null | undefined, string | null>;
  /** What each port of that state serves, { portId: digest } (heartbeat `ports`); null: an agent that does not say. */
  served_ports: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
}
export interface GatewaysTable {
  id: Generated<string>; name: string;
  /** What customers connect to (Your Proxies shows it instead of the host's address). */
  public_host: string;
  /** What the hosts' agents dial (http:// or https://). */
  link_url: string;
  created_at: CreatedAt;
}
export type GatewayLinkState = 'up' | 'connecting' | 'down' | 'refused';
/** What each host's agent reports of its gateway link, and the fencing epoch of its latest agent connection. */
export interface HostGatewayLinksTable {
  host_id: string;
  epoch: ColumnType<bigint, bigint | number | undefined, bigint | number>;
  state: ColumnType<GatewayLinkState, GatewayLinkState | undefined, GatewayLinkState>;
  problem: ColumnType<string | null, string | null | undefined, string | null>;
  changed_at: ColumnType<Date, Date | string | undefined, Date | string>;
}
export interface ModemsTable {
  id: Generated<string>;
  imei: string;
  host_id: string;
  http_port: number;
  socks_port: number;
  ext_ip: string;
  apply_status: Generated<ApplyStatusColumn>;
  online: Generated<boolean>;
  retired: Generated<boolean>;
  country_id: string;
  carrier_id: string;
  region_id: string | null;
  is_shared: boolean;
  capacity: Generated<number>;
  used_slots: Generated<number>;
  rotation_interval: number | null;
  last_rotated_at: Date | null;
  /** Due time of the shared modem's next automatic rotation; null when no chain runs. */
  rotation_due_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Open proxy connections, as the agent last reported. */
  connections: Generated<number>;
  /** Why the agent cannot serve the modem (a listening port taken, a driver error); null when fine. */
  problem: ColumnType<string | null, string | null | undefined, string | null>;
  driver: Generated<'simulated' | 'hilink' | 'modemmanager'>;
  /** The agent's health checks: online, degraded or offline, why, and since when (migration 2026_12_04_1000). */
  health: Generated<'online' | 'degraded' | 'offline'>;
  health_reason: ColumnType<string | null, string | null | undefined, string | null>;
  health_changed_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The operators were told the modem is offline and not yet that it is back. */
  health_alerted: Generated<boolean>;
  /** Out of service since (issue 15, item 6): never sold or picked as a replacement until an operator returns it. */
  maintenance_since: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  maintenance_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** The operator's fingerprint preset for this modem's ports that choose none (issue 30); null: the tariff's. */
  fingerprint_default: ColumnType<FingerprintPresetId | null, FingerprintPresetId | null | undefined, FingerprintPresetId | null>;
}
export interface PortsTable {
  id: Generated<string>;
  user_id: string;
  modem_id: string;
  tariff_id: string;
  is_shared: boolean;
  /** The customer's name for the port, or the English default while default_number is set. */
  name: string;
  /** Set while the name is the default "Proxy N" (its N), rendered in the reader's language (notifications/port-name.ts). */
  default_number: ColumnType<number | null, number | null | undefined, number | null>;
  proxy_login: string;
  proxy_password: string;
  whitelist: ColumnType<string[], string, string>;
  rotation_interval: Generated<number>;
  rotation_nonce: string;
  rotation_token_hash: string;
  status: Generated<'active' | 'expired' | 'released'>;
  expires_at: Timestamp;
  auto_renew: Generated<boolean>;
  last_rotated_at: Date | null;
  /** Due time of the port's next automatic rotation; null when no chain runs. */
  rotation_due_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: CreatedAt;
  released_at: Date | null;
  /** Set while an operator has suspended the port (abuse handling): it refuses connections. */
  suspended_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** The customer's tags, lower case and sorted (issue 16, item 4). */
  tags: ColumnType<string[], string[] | undefined, string[]>;
  /** The customer's note; '' when none. */
  note: Generated<string>;
  /** The customer's fingerprint preset (issue 30); null: the modem's or tariff's default, else native. */
  fingerprint: ColumnType<FingerprintPresetId | null, FingerprintPresetId | null | undefined, FingerprintPresetId | null>;
  /**
   * The port's own listening numbers (decision 045), kept when it moves to another modem or host; null: a shared port
   * sold before 045 that has not moved since, served on its modem's numbers.
   */
  http_port: ColumnType<number | null, number | null | undefined, number | null>;
  socks_port: ColumnType<number | null, number | null | undefined, number | null>;
}

/**
 * The heartbeat's `inventory`: what a host's agent last reported of each modem in its modems file (HostModemInfo
 * without the IMEI), known to the server or not. Written only when the report changed.
 */
export interface HostModemReportsTable {
  host_id: string;
  imei: string;
  report: ColumnType<unknown, string, string>;
  first_seen_at: ColumnType<Date, Date | string | undefined, never>;
  changed_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A port's replacements (migration 2026_12_05_1500): its place in the queue for a free modem, the last customer request. */
export interface PortReplacementsTable {
  port_id: string;
  queued_since: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  queued_reason: ColumnType<'offline' | 'customer' | null, 'offline' | 'customer' | null | undefined, 'offline' | 'customer' | null>;
  queued_told: Generated<boolean>;
  customer_requested_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  moves: Generated<number>;
  last_moved_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** Each account's prefix of the proxy logins its customer chooses (decision 035); made on first use. */
export interface ProxyLoginPrefixesTable {
  user_id: string;
  prefix: string;
}

export interface PortsTables {
  hosts: HostsTable; modems: ModemsTable; ports: PortsTable; host_modem_reports: HostModemReportsTable;
  port_replacements: PortReplacementsTable; gateways: GatewaysTable; host_gateway_links: HostGatewayLinksTable;
  proxy_login_prefixes: ProxyLoginPrefixesTable;
}
