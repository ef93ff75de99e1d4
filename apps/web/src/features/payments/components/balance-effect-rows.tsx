import { useT } from '../../../lib/i18n';
import { formatUsd } from '../../../lib/money';
import type { BalanceEffect } from '../lib/balance-effect';

/**
 * The rows of an order summary (inside its <dl>) that say what the chosen method changes: paying from the balance
 * shows the balance and the balance after payment; card, PayPal and crypto show what they are charged and that the
 * balance is not used (no 'Balance after payment', which would claim the balance pays).
 */
export function BalanceEffectRows({ effect, shortClassName }: { effect: BalanceEffect; shortClassName?: string }) {
  const { t } = useT('payments');
  if (effect.method === 'balance') {
    return (
      <>
        <div><dt>{t('effect.balance')}</dt><dd>{effect.balance === null ? '—' : formatUsd(effect.balance)}</dd></div>
        <div className={effect.short ? shortClassName : undefined} data-testid="balance-after">
          <dt>{t('effect.balanceAfter')}</dt><dd>{effect.after === null ? '—' : formatUsd(effect.after)}</dd>
        </div>
      </>
    );
  }
  return (
    <div data-testid="charged-elsewhere"><dt>{t(`effect.charged.${effect.method}`)}</dt><dd>{formatUsd(effect.charged)}</dd></div>
  );
}

/** Under the summary, for card, PayPal and crypto: the balance is not used (and where a crypto surplus goes). */
export function BalanceEffectNote({ effect, className }: { effect: BalanceEffect; className?: string }) {
  const { t } = useT('payments');
  if (effect.method === 'balance') return null;
  return (
    <p className={className} data-testid="balance-untouched">
      {effect.balance === null ? t('effect.untouchedUnknown') : t('effect.untouched', { amount: formatUsd(effect.balance) })}
      {effect.method === 'crypto' ? ` ${t('effect.cryptoExtra')}` : null}
    </p>
  );
}
