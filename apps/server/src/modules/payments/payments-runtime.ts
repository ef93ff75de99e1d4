import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { createBtcAdapter, type BtcAdapter } from '../../integrations/bitcoin/btc-adapter.js';
import { PayPalGateway } from '../../integrations/paypal/paypal-gateway.js';
import { BtcRateSource, type BtcUsdRate } from '../../integrations/rates/btc-rate-source.js';
import { decimalToMicro } from '../../integrations/rates/decimal-rate.js';
import { createCardProvider } from '../../integrations/stripe/create-card-provider.js';
import type { SandboxCardProvider } from '../../integrations/stripe/sandbox-card-provider.js';
import type { SandboxCardStore } from '../../integrations/stripe/sandbox-card-store.js';
import type { StripeCardProvider } from '../../integrations/stripe/stripe-card-provider.js';
import { createUsdtAdapter, type UsdtAdapter } from '../../integrations/tron/usdt-adapter.js';

/** The outside-system adapters of one running app, created once and shared by the payment modules. */
export interface PaymentsRuntime {
  btc: BtcAdapter;
  usdt: UsdtAdapter;
  rates: { current(): Promise<BtcUsdRate | null> };
  card: StripeCardProvider | SandboxCardProvider | null;
  paypal: PayPalGateway;
  /** 'live' only when both coins watch the chain; with a sandbox key payments complete by simulation. */
  cryptoMode: 'live' | 'sandbox';
  /** Offline 'Simulate payment' control: sandbox crypto outside production. */
  simulateCrypto: boolean;
}

/** Creates the payment adapters from the config; the composition root calls it once per app. */
export function createPaymentsRuntime(config: Config, log: FastifyBaseLogger, sandboxCards: SandboxCardStore): PaymentsRuntime {
  const btc = createBtcAdapter(config, log);
  const usdt = createUsdtAdapter(config, log);
  const cryptoMode = btc.mode === 'live' && usdt.mode === 'live' ? 'live' : 'sandbox';
  return {
    btc, usdt, cryptoMode,
    rates: withSandboxFallback(new BtcRateSource({ url: config.RATE_TICKER_URL, log }), cryptoMode, log),
    card: createCardProvider(config, sandboxCards),
    paypal: new PayPalGateway(config.paypal),
    simulateCrypto: cryptoMode === 'sandbox' && !config.isProduction,
  };
}

/**
 * Offline, the public ticker never answers; in sandbox mode a fixed, clearly fake rate keeps Bitcoin payments
 * usable (they complete by simulation anyway). In live mode an unknown rate stays unknown.
 */
export const SANDBOX_BTC_USD = '100000';
function withSandboxFallback(source: BtcRateSource, mode: 'live' | 'sandbox', log: { info(msg: string): void }): PaymentsRuntime['rates'] {
  if (mode === 'live') return source;
  const fallback: BtcUsdRate = { usd: SANDBOX_BTC_USD, microUsdPerBtc: decimalToMicro(SANDBOX_BTC_USD), fetchedAt: new Date(), sandbox: true };
  // Say which rate sandbox payments use, once each time it changes between the ticker's and the fixed one.
  let using: 'ticker' | 'fixed' | null = null;
  return {
    current: async () => {
      const rate = await source.current();
      const now = rate ? 'ticker' : 'fixed';
      if (now !== using) {
        using = now;
        log.info(rate
          ? `Sandbox crypto payments use the ticker's BTC rate (${rate.usd} USD per BTC)`
          : `Sandbox crypto payments use the fixed sandbox BTC rate of ${SANDBOX_BTC_USD} USD per BTC (the ticker has no rate)`);
      }
      return rate ?? { ...fallback, fetchedAt: new Date() };
    },
  };
}
