import { fetchJson, type UpstreamLog } from '../../lib/upstream-json.js';
import { decimalToMicro, toDecimalRate } from './decimal-rate.js';

export interface BtcUsdRate {
  /** Dollars per bitcoin as the ticker gave it, as a decimal string ("64123.45"). */
  usd: string;
  /** The same rate in integer micro-USD per BTC, for money arithmetic. */
  microUsdPerBtc: bigint;
  fetchedAt: Date;
}

export interface BtcRateSourceOptions {
  /** A blockchain.info/ticker-compatible URL: JSON with `USD.last`. */
  url: string;
  /** How long a fetched rate is served before asking again (default 60 s: one upstream call a minute in total). */
  ttlMs?: number;
  /** After a failure, how long to keep serving the last good rate before trying again (default 15 s). */
  retryAfterFailureMs?: number;
  timeoutMs?: number;
  log: UpstreamLog;
  now?: () => number;
}

/**
 * The BTC/USD rate, fetched by our server and shared by every customer (decision 010). Concurrent callers share one
 * request; a failure or a nonsense answer keeps the last good rate. `current()` never throws: before the first
 * success it returns null, which the page treats as "rate unknown" (spec §8: a failure is silently ignored).
 */
export class BtcRateSource {
  private last: BtcUsdRate | null = null;
  private lastAttemptAt = Number.NEGATIVE_INFINITY;
  private lastAttemptFailed = false;
  private inFlight: Promise<BtcUsdRate | null> | null = null;

  constructor(private readonly options: BtcRateSourceOptions) {}

  async current(): Promise<BtcUsdRate | null> {
    const now = this.now();
    const waitMs = this.lastAttemptFailed ? (this.options.retryAfterFailureMs ?? 15_000) : (this.options.ttlMs ?? 60_000);
    if (now - this.lastAttemptAt < waitMs) return this.last;
    this.inFlight ??= this.refresh().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async refresh(): Promise<BtcUsdRate | null> {
    this.lastAttemptAt = this.now();
    try {
      const body = await fetchJson(this.options.url, { timeoutMs: this.options.timeoutMs ?? 5_000 });
      const usd = toDecimalRate((body as { USD?: { last?: unknown } } | null)?.USD?.last);
      if (!usd) throw new Error('USD.last is missing or not a positive decimal');
      this.last = { usd, microUsdPerBtc: decimalToMicro(usd), fetchedAt: new Date(this.now()) };
      this.lastAttemptFailed = false;
    } catch (err) {
      this.lastAttemptFailed = true;
      this.options.log.warn({ err, upstream: 'btc-ticker', keptRateFrom: this.last?.fetchedAt ?? null }, 'BTC rate fetch failed; keeping the last good rate');
    }
    return this.last;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}
