/** What a real modem tells about itself (all but the IMEI as far as the device reports it). */
export interface ModemDetails {
  imei: string;
  manufacturer?: string;
  model?: string;
  firmware?: string;
  operator?: string;
  /** 2G, 3G, 4G, 4G+ or 5G, as the device reports its current network. */
  networkType?: string;
  /** dBm / dB as reported; quality is ModemManager's 0–100 %. */
  signal?: { rssi?: number; rsrp?: number; rsrq?: number; sinr?: number; quality?: number };
  connection?: ConnectionState;
  /** The address the carrier gave the modem (often CGNAT, not the public IP). */
  wanIp?: string;
}

export type ConnectionState = 'connected' | 'connecting' | 'disconnected' | 'disconnecting' | 'unknown';

/** One real modem's management interface (HiLink web API, ModemManager's mmcli). */
export interface ModemBackend {
  /** How logs and errors name the modem: its management address or mmcli index. */
  readonly label: string;
  details(): Promise<ModemDetails>;
  /** The data connection's state alone, when the device can tell it more cheaply than details() (health checks). */
  connection?(): Promise<ConnectionState>;
  /** Drops the mobile data connection and brings it back; resolves once the device says it is connected again. */
  reconnect(): Promise<void>;
  /** Restarts the modem; resolves once it answers and is connected again. */
  reboot(): Promise<void>;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `check` every `everyMs` until it is true; throws `message` after `timeoutMs`. Errors count as "not yet". */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, everyMs: number, message: () => string): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() + everyMs > until) throw new Error(message());
    await sleep(everyMs);
  }
}

export function toNumber(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '' || value === '--') return undefined;
  const n = Number.parseFloat(String(value));
  return Number.isFinite(n) ? n : undefined;
}
