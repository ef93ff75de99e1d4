import { sleep, toNumber, waitFor, type ConnectionState, type ModemBackend, type ModemDetails } from '../modem-backend.js';
import { HilinkClient, type HilinkClientOptions } from './hilink-client.js';

/** monitoring/status ConnectionStatus: 901 connected, 902 disconnected, 900/905 connecting, 903 disconnecting. */
export function connectionState(code: unknown): ConnectionState {
  switch (String(code)) {
    case '901': return 'connected';
    case '902': case '904': return 'disconnected';
    case '900': case '905': return 'connecting';
    case '903': return 'disconnecting';
    default: return 'unknown';
  }
}

/** CurrentNetworkTypeEx (newer firmware) or CurrentNetworkType, as a generation. */
export function networkType(ex: unknown, legacy: unknown): string | undefined {
  const byEx: Record<string, string> = { 1: '2G', 2: '2G', 3: '2G', 41: '3G', 42: '3G', 43: '3G', 44: '3G', 45: '3G', 46: '3G', 61: '3G', 62: '3G', 63: '3G', 64: '3G', 65: '3G', 81: '3G', 82: '3G', 83: '3G', 84: '3G', 85: '3G', 101: '4G', 1011: '4G+', 111: '5G', 112: '5G' };
  const byLegacy: Record<string, string> = { 1: '2G', 2: '2G', 3: '2G', 4: '3G', 5: '3G', 6: '3G', 7: '3G', 8: '3G', 9: '3G', 10: '3G', 11: '3G', 12: '3G', 13: '3G', 14: '3G', 15: '3G', 16: '3G', 17: '3G', 18: '3G', 19: '4G', 20: '4G+', 21: '5G' };
  return byEx[String(ex)] ?? byLegacy[String(legacy)];
}

export interface HilinkModemOptions extends HilinkClientOptions {
  /** How long a reconnect may take to reach 901 again. */
  connectTimeoutMs?: number;
  /** How long a reboot may keep the API away. */
  rebootTimeoutMs?: number;
  /** Pause between status polls. */
  pollMs?: number;
}

/** A Huawei HiLink modem (E3372h, E8372, B-series) through its web API. */
export class HilinkModem implements ModemBackend {
  readonly label: string;
  readonly client: HilinkClient;
  private readonly pollMs: number;

  constructor(private readonly options: HilinkModemOptions) {
    this.label = options.baseUrl;
    this.client = new HilinkClient(options);
    this.pollMs = options.pollMs ?? 1000;
  }

  async status(): Promise<{ connection: ConnectionState; networkType?: string; wanIp?: string }> {
    const s = await this.client.get('monitoring/status');
    return {
      connection: connectionState(s.ConnectionStatus),
      networkType: networkType(s.CurrentNetworkTypeEx, s.CurrentNetworkType),
      wanIp: typeof s.WanIPAddress === 'string' && s.WanIPAddress ? s.WanIPAddress : undefined,
    };
  }

  async connection(): Promise<ConnectionState> { return (await this.status()).connection; }

  async details(): Promise<ModemDetails> {
    const info = await this.client.get('device/information');
    const imei = String(info.Imei ?? '');
    if (!/^\d{14,16}$/.test(imei)) throw new Error(`HiLink ${this.label}: device/information has no IMEI`);
    // The rest is best effort: older firmware lacks device/signal, a modem without a SIM has no PLMN.
    const [status, signal, plmn] = await Promise.all([
      this.status().catch(() => undefined),
      this.client.get('device/signal').catch(() => undefined),
      this.client.get('net/current-plmn').catch(() => undefined),
    ]);
    const operator = plmn && String(plmn.FullName || plmn.ShortName || '').trim();
    const sig = signal && { rssi: toNumber(signal.rssi), rsrp: toNumber(signal.rsrp), rsrq: toNumber(signal.rsrq), sinr: toNumber(signal.sinr) };
    return {
      imei,
      manufacturer: 'Huawei',
      ...(info.DeviceName ? { model: String(info.DeviceName) } : {}),
      ...(info.SoftwareVersion ? { firmware: String(info.SoftwareVersion) } : {}),
      ...(operator ? { operator } : {}),
      ...(status?.networkType ? { networkType: status.networkType } : {}),
      ...(sig && Object.values(sig).some((v) => v !== undefined) ? { signal: Object.fromEntries(Object.entries(sig).filter(([, v]) => v !== undefined)) } : {}),
      ...(status ? { connection: status.connection } : {}),
      ...(status?.wanIp ?? info.WanIPAddress ? { wanIp: String(status?.wanIp ?? info.WanIPAddress) } : {}),
    };
  }

  private async setDataSwitch(on: boolean): Promise<void> {
    await this.client.post('dialup/mobile-dataswitch', { dataswitch: on ? 1 : 0 });
  }

  /** Data switch off, wait for 902, on again, wait for 901. */
  async reconnect(): Promise<void> {
    const timeout = this.options.connectTimeoutMs ?? 60_000;
    await this.setDataSwitch(false);
    await waitFor(async () => (await this.status()).connection === 'disconnected', Math.min(timeout, 20_000), this.pollMs,
      () => `HiLink ${this.label}: still connected after the data switch was turned off`).catch(() => undefined);
    await this.setDataSwitch(true);
    await this.waitConnected(timeout);
  }

  async waitConnected(timeoutMs: number): Promise<void> {
    let last: ConnectionState = 'unknown';
    await waitFor(async () => (last = (await this.status()).connection) === 'connected', timeoutMs, this.pollMs,
      () => `HiLink ${this.label}: not connected ${Math.round(timeoutMs / 1000)} s after the data switch was turned on (status: ${last}${last === 'connecting' ? ', 905: check the SIM, its APN and its data balance' : ''})`);
  }

  /** device/control 1, then wait for the API to go away and come back, connected. */
  async reboot(): Promise<void> {
    const timeout = this.options.rebootTimeoutMs ?? 180_000;
    await this.client.post('device/control', { Control: 1 });
    this.client.reset();
    const started = Date.now();
    // The API answers for a moment after the command; wait until it has gone (or a few seconds passed).
    const goneBy = started + Math.min(10_000, timeout);
    while (Date.now() < goneBy && await this.client.get('monitoring/status').then(() => true, () => false)) await sleep(this.pollMs);
    this.client.reset();
    await this.waitConnected(Math.max(1000, timeout - (Date.now() - started)));
  }
}
