import type { Coin } from '@cellport/shared/constants';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n';
import { formatUsd } from '../../../lib/money';
import { startPayment } from '../flow/payment-flow-store';
import type { PaymentMethodId, PaymentOrder } from '../flow/payment-order';

/** 'Pay $X by card / with PayPal / in Bitcoin': opens that method's payment dialog for the order. */
export function PayWithButton({ method, coin, order, disabled, className }: {
  method: PaymentMethodId;
  coin: Coin;
  order: PaymentOrder | null;
  disabled?: boolean;
  className?: string;
}) {
  const { t } = useT('payments');
  const amount = order ? formatUsd(order.amount) : '';
  function open() {
    if (!order) return;
    if (method === 'crypto') startPayment({ method, order, coin });
    else startPayment({ method, order });
  }
  return (
    <Button className={className} disabled={disabled || !order} onClick={open}>
      {method === 'crypto' ? t('payWith.crypto', { amount, coin: t(`coin.${coin}`) }) : t(`payWith.${method}`, { amount })}
    </Button>
  );
}
