import type { PendingPayment } from '@cellport/shared/schemas/payments';
import type { Config } from '../../config.js';
import { AppError } from '../../lib/app-error.js';
import type { Fulfilment } from './fulfilment.js';
import type { OrdersService } from './orders.service.js';
import type { PaymentsRuntime } from './payments-runtime.js';
import type { PayPalPayments } from './paypal-payments.js';

/**
 * 'Simulate payment': the offline stand-in for the customer's wallet or PayPal account, never in production. It
 * completes the payment through the same fulfilment as a real deposit or IPN.
 */
export class PaymentSimulation {
  constructor(
    private readonly orders: OrdersService,
    private readonly fulfilment: Fulfilment,
    private readonly paypal: PayPalPayments,
    private readonly rt: PaymentsRuntime,
    private readonly config: Pick<Config, 'isProduction' | 'paypal'>,
  ) {}

  async simulate(userId: string, orderId: string): Promise<PendingPayment> {
    const order = await this.orders.own(userId, orderId);
    const allowed = order.provider === 'crypto'
      ? !this.config.isProduction && (order.coin === 'btc' ? this.rt.btc : this.rt.usdt).mode === 'sandbox'
      : order.provider === 'paypal' && this.config.paypal.simulation;
    if (!allowed) throw new AppError('SIMULATION_DISABLED');
    if (order.status !== 'pending') throw new AppError('PAYMENT_NOT_PENDING');
    if (order.provider === 'crypto') {
      const missing = (order.coin === 'btc' ? order.provider_amount : order.amount) - order.received;
      await this.fulfilment.settleNow({
        userId, orderId: order.id, coin: order.coin!, amount: missing > 0n ? missing : 1n,
        reference: `simulated:${order.id}:${order.received}`, kind: 'simulated',
      });
    } else {
      await this.paypal.simulate(order);
    }
    return this.orders.ownView(userId, order.id);
  }
}
