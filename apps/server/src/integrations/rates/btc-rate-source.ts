import { fetchJson, type UpstreamLog } from '../../lib/upstream-json.js';
import { decimalToMicro, toDecimalRate } from './decimal-rate.js';

export interface BtcUsdRate {
  /** Dollars per bitcoin as the ticker gave it, as a decimal string ("64123.45"). */
  usd: string;
  /** The same rate in integer micro-USD per BTC, for money arithmetic. */
  microUsdPerBtc: bigint;
  fetchedAt: Date;
  /** True for the sandbox's fixed rate (used while the ticker has none), absent for a ticker's rate. */
  sandbox?: boolean;
}

export interface BtcRateSourceOptions {
  /** A blockchain.info/ticker-compatible URL: JSON with `USD.last`. */
  url: string;
  /** How long a fetched rate is served before asking again (default 60 s: one upstream call a minute in total). */
  ttlMs?: number;
  /** After a failure, how long to keep serving the last good rate before trying again (default 15 s). */
  retryAfterFailureMs?: number;
  timeoutMs?: number;
  /** One line when the source goes away (warn) and one when it comes back (info); nothing per failed attempt. */
  log: UpstreamLog & { info(details: object, message: string): void };
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
      if (this.lastAttemptFailed) {
        this.options.log.info({ upstream: 'btc-ticker', usd }, `BTC rate source is back: ${usd} USD per BTC`);
      }
      this.lastAttemptFailed = false;
    } catch (err) {
      // Offline the ticker fails every attempt: say so once, with the reason in one line, not a stack each minute.
      if (!this.lastAttemptFailed) {
        const reason = err instanceof Error ? err.message : String(err);
        const kept = this.last ? `keeping the rate of ${this.last.fetchedAt.toISOString()}` : 'no rate until it answers';
        this.options.log.warn({ upstream: 'btc-ticker', url: this.options.url, keptRateFrom: this.last?.fetchedAt ?? null },
          `BTC rate source unavailable (${reason}); ${kept}`);
      }
      this.lastAttemptFailed = true;
    }
    return this.last;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }
}
