import type { AppContext } from '../../context.js';
import { createBtcAdapter, type BtcAdapter } from '../../integrations/bitcoin/btc-adapter.js';
import { PayPalGateway } from '../../integrations/paypal/paypal-gateway.js';
import { BtcRateSource } from '../../integrations/rates/btc-rate-source.js';
import { createCardProvider } from '../../integrations/stripe/create-card-provider.js';
import type { SandboxCardProvider } from '../../integrations/stripe/sandbox-card-provider.js';
import type { StripeCardProvider } from '../../integrations/stripe/stripe-card-provider.js';
import { createUsdtAdapter, type UsdtAdapter } from '../../integrations/tron/usdt-adapter.js';

/** The outside-system adapters of one running app, created once and shared by the payment modules. */
export interface PaymentsRuntime {
  btc: BtcAdapter;
  usdt: UsdtAdapter;
  rates: BtcRateSource;
  card: StripeCardProvider | SandboxCardProvider | null;
  paypal: PayPalGateway;
  /** 'live' only when both coins watch the chain; with a sandbox key payments complete by simulation. */
  cryptoMode: 'live' | 'sandbox';
  /** Offline 'Simulate payment' control: sandbox crypto outside production. */
  simulateCrypto: boolean;
}

const runtimes = new WeakMap<AppContext, PaymentsRuntime>();

export function paymentsRuntime(ctx: AppContext): PaymentsRuntime {
  let rt = runtimes.get(ctx);
  if (!rt) {
    const btc = createBtcAdapter(ctx.config, ctx.log);
    const usdt = createUsdtAdapter(ctx.config, ctx.log);
    const cryptoMode = btc.mode === 'live' && usdt.mode === 'live' ? 'live' : 'sandbox';
    rt = {
      btc, usdt, cryptoMode,
      rates: new BtcRateSource({ url: ctx.config.RATE_TICKER_URL, log: ctx.log }),
      card: createCardProvider(ctx.config),
      paypal: new PayPalGateway(ctx.config.paypal),
      simulateCrypto: cryptoMode === 'sandbox' && !ctx.config.isProduction,
    };
    runtimes.set(ctx, rt);
  }
  return rt;
}
