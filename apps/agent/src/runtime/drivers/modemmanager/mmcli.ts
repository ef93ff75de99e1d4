import { execFile } from 'node:child_process';
import { toNumber, waitFor, type ConnectionState, type ModemBackend, type ModemDetails } from '../modem-backend.js';

export interface MmcliOptions {
  /** The program to run (found on PATH; no shell is involved). */
  command?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** Runs `mmcli -J …` (execFile, no shell) and parses its JSON; errors say whether ModemManager is missing or a modem is gone. */
export function mmcli(args: string[], options: MmcliOptions = {}): Promise<Record<string, unknown>> {
  const command = options.command ?? 'mmcli';
  return new Promise((resolve, reject) => {
    execFile(command, ['-J', ...args], { env: options.env ?? process.env, timeout: options.timeoutMs ?? 30_000, maxBuffer: 4 << 20 }, (err, stdout, stderr) => {
      if (err) {
        const e = err as NodeJS.ErrnoException & { killed?: boolean };
        if (e.code === 'ENOENT') return reject(new MmcliError('missing', 'ModemManager\'s mmcli is not installed on this host (apt install modemmanager)'));
        if (e.killed) return reject(new MmcliError('timeout', `mmcli ${args.join(' ')} did not finish within ${options.timeoutMs ?? 30_000} ms`));
        const text = `${stderr}`.trim() || e.message;
        if (/couldn't (create|find the) ModemManager|ModemManager is not running|not provided by any \.service|org\.freedesktop\.ModemManager1 was not provided/i.test(text)) {
          return reject(new MmcliError('missing', `ModemManager is not running (systemctl start ModemManager): ${text}`));
        }
        if (/couldn't find modem|modem not found|No modem|couldn't find bearer/i.test(text)) return reject(new MmcliError('gone', `mmcli ${args.join(' ')}: ${text}`));
        return reject(new MmcliError('failed', `mmcli ${args.join(' ')}: ${text}`));
      }
      const out = `${stdout}`.trim();
      if (!out) return resolve({});
      try {
        resolve(JSON.parse(out) as Record<string, unknown>);
      } catch {
        reject(new MmcliError('failed', `mmcli ${args.join(' ')} did not print JSON`));
      }
    });
  });
}

export class MmcliError extends Error {
  constructor(readonly kind: 'missing' | 'gone' | 'timeout' | 'failed', message: string) { super(message); }
}

const indexOf = (path: unknown) => Number(/\/(\d+)$/.exec(String(path))?.[1] ?? Number.NaN);
const str = (v: unknown) => (typeof v === 'string' && v !== '--' && v !== '' ? v : undefined);

/** Every modem ModemManager sees: its index. */
export async function listModems(options?: MmcliOptions): Promise<number[]> {
  const out = await mmcli(['-L'], options);
  const list = (out['modem-list'] ?? []) as unknown[];
  return list.map(indexOf).filter((n) => Number.isInteger(n));
}

function accessToGeneration(techs: string[]): string | undefined {
  if (techs.some((t) => /5gnr/.test(t))) return '5G';
  if (techs.some((t) => /lte/.test(t))) return '4G';
  if (techs.some((t) => /umts|hspa|hsdpa|hsupa|evdo/.test(t))) return '3G';
  if (techs.some((t) => /gsm|gprs|edge/.test(t))) return '2G';
  return undefined;
}

function connectionOf(state: string | undefined): ConnectionState {
  switch (state) {
    case 'connected': return 'connected';
    case 'connecting': return 'connecting';
    case 'disconnecting': return 'disconnecting';
    case 'registered': case 'enabled': case 'searching': case 'disabled': case 'disabling': case 'enabling': return 'disconnected';
    default: return 'unknown';
  }
}

export interface ModemManagerModemOptions extends MmcliOptions {
  /** mmcli's index, or the IMEI to find it by (the index changes when the modem re-enumerates). */
  index?: number;
  imei?: string;
  /** For --simple-connect when the modem has no bearer yet. */
  apn?: string;
  connectTimeoutMs?: number;
  pollMs?: number;
}

/** A modem under ModemManager (stick-mode dongles, M.2 and mPCIe cards) through `mmcli -J`. */
export class ModemManagerModem implements ModemBackend {
  readonly label: string;
  private index: number | undefined;

  constructor(private readonly options: ModemManagerModemOptions) {
    this.index = options.index;
    this.label = options.imei ? `mmcli modem with IMEI ${options.imei}` : `mmcli modem ${options.index}`;
  }

  /** The modem's index now: a fixed one, or found by IMEI (again after the modem re-enumerated). */
  private async resolve(): Promise<number> {
    if (this.index !== undefined) return this.index;
    for (const index of await listModems(this.options)) {
      const modem = await this.modem(index).catch(() => undefined);
      if (modem && imeiOf(modem) === this.options.imei) return (this.index = index);
    }
    throw new MmcliError('gone', `ModemManager has no modem with IMEI ${this.options.imei} (unplugged, or not yet enumerated)`);
  }

  private async modem(index: number): Promise<Record<string, Record<string, unknown>>> {
    return ((await mmcli(['-m', String(index)], this.options)).modem ?? {}) as Record<string, Record<string, unknown>>;
  }

  /** Runs `fn` with the modem's index; if it is gone and was found by IMEI, looks for it once more. */
  private async withModem<T>(fn: (index: number) => Promise<T>): Promise<T> {
    const index = await this.resolve();
    try {
      return await fn(index);
    } catch (err) {
      if (!(err instanceof MmcliError) || err.kind !== 'gone' || !this.options.imei) {
        if (err instanceof MmcliError && err.kind === 'gone') throw new MmcliError('gone', `${this.label} is gone (unplugged or re-enumerated; use match: { imei } to follow it): ${err.message}`);
        throw err;
      }
      this.index = undefined;
      return fn(await this.resolve());
    }
  }

  async details(): Promise<ModemDetails> {
    return this.withModem(async (index) => {
      const modem = await this.modem(index);
      const generic = modem.generic ?? {};
      const gpp = modem['3gpp'] ?? {};
      const imei = imeiOf(modem);
      if (!imei) throw new MmcliError('failed', `${this.label}: mmcli shows no IMEI`);
      const quality = generic['signal-quality'] as { value?: unknown } | undefined;
      const signal: NonNullable<ModemDetails['signal']> = {};
      if (toNumber(quality?.value) !== undefined) signal.quality = toNumber(quality?.value);
      // Detailed figures need `--signal-setup` once; without it mmcli prints '--' and they are left out.
      const extended = await mmcli(['-m', String(index), '--signal-get'], this.options).catch(() => undefined);
      const sig = ((extended?.modem as Record<string, unknown> | undefined)?.signal ?? {}) as Record<string, Record<string, unknown>>;
      const lte = sig['5g'] && toNumber(sig['5g'].rsrp) !== undefined ? sig['5g'] : sig.lte ?? {};
      for (const [from, to] of [['rssi', 'rssi'], ['rsrp', 'rsrp'], ['rsrq', 'rsrq'], ['snr', 'sinr']] as const) {
        const v = toNumber(lte[from]);
        if (v !== undefined) signal[to] = v;
      }
      const networkType = accessToGeneration(((generic['access-technologies'] ?? []) as unknown[]).map(String));
      const bearer = await this.bearer(modem).catch(() => undefined);
      return {
        imei,
        ...(str(generic.manufacturer) ? { manufacturer: str(generic.manufacturer) } : {}),
        ...(str(generic.model) ? { model: str(generic.model) } : {}),
        ...(str(generic.revision) ? { firmware: str(generic.revision) } : {}),
        ...(str(gpp['operator-name']) ? { operator: str(gpp['operator-name']) } : {}),
        ...(networkType ? { networkType } : {}),
        ...(Object.keys(signal).length ? { signal } : {}),
        connection: connectionOf(str(generic.state)),
        ...(bearer?.address ? { wanIp: bearer.address } : {}),
      };
    });
  }

  private async bearer(modem: Record<string, Record<string, unknown>>): Promise<{ index: number; connected: boolean; address?: string } | undefined> {
    const paths = (modem.generic?.bearers ?? []) as unknown[];
    if (!paths.length) return undefined;
    const index = indexOf(paths[0]);
    const bearer = ((await mmcli(['-b', String(index)], this.options)).bearer ?? {}) as Record<string, Record<string, unknown>>;
    return { index, connected: bearer.status?.connected === 'yes', address: str(bearer['ipv4-config']?.address) };
  }

  /** Disconnects the modem's bearer and connects it again (a new PDP context, usually a new IP). */
  async reconnect(): Promise<void> {
    await this.withModem(async (index) => {
      const bearer = await this.bearer(await this.modem(index));
      if (bearer) {
        await mmcli(['-b', String(bearer.index), '--disconnect'], this.options);
        await mmcli(['-b', String(bearer.index), '--connect'], this.options);
      } else {
        if (!this.options.apn) throw new MmcliError('failed', `${this.label} has no bearer to reconnect: connect it once, or give its apn in the modems file`);
        await mmcli(['-m', String(index), `--simple-connect=apn=${this.options.apn}`], this.options);
      }
      await waitFor(async () => (await this.bearer(await this.modem(index)))?.connected === true, this.options.connectTimeoutMs ?? 60_000,
        this.options.pollMs ?? 1000, () => `${this.label}: the bearer did not connect again`);
    });
  }

  /** `mmcli -m N --reset`, then wait for the modem to come back (by IMEI, as its index changes) and connect. */
  async reboot(): Promise<void> {
    const imei = this.options.imei ?? (await this.details()).imei;
    await this.withModem((index) => mmcli(['-m', String(index), '--reset'], this.options));
    if (this.options.imei) this.index = undefined;
    const byImei = new ModemManagerModem({ ...this.options, index: undefined, imei });
    await waitFor(async () => (await byImei.details()).connection === 'connected', 180_000, this.options.pollMs ?? 2000,
      () => `${this.label} did not come back connected after a reset`);
  }
}

function imeiOf(modem: Record<string, Record<string, unknown>>): string | undefined {
  return str(modem['3gpp']?.imei) ?? str(modem.generic?.['equipment-identifier']);
}
