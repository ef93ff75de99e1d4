import { ADMIN_LIMITS } from '@cellport/shared/schemas/admin/common';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useT } from '../../../lib/i18n';
import { parseMoneyInput } from '../../../lib/money';
import { adjustBalance } from '../api/customers';
import { useAdminMutation } from '../api/use-admin-mutation';
import { coinAmount } from '../lib/format';

type Coin = 'usdt' | 'btc';

/**
 * Credit or debit a customer's balance with a reason (a ledger entry). The amount is typed in dollars (or BTC) and
 * sent as integer minor units made by string math; a debit is confirmed in the button's own words. Open while mounted:
 * the page mounts it for each opening, so every opening starts empty as a credit in dollars (reset by an effect after
 * opening instead, the last opening's amount and reason could still be there when the operator's first key came).
 */
export function BalanceAdjustDialog({ customerId, onClose }: { customerId: string; onClose: () => void }) {
  const { t } = useT('admin');
  const [coin, setCoin] = useState<Coin>('usdt');
  const [direction, setDirection] = useState<'credit' | 'debit'>('credit');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const mutation = useAdminMutation(adjustBalance, { successKey: 'customers.adjusted', onSuccess: onClose });

  const minor = parseMoneyInput(amount, coin);
  const reasonOk = reason.trim().length >= ADMIN_LIMITS.reasonMin && reason.trim().length <= ADMIN_LIMITS.reasonMax;
  const signed = minor === null ? null : direction === 'debit' ? -minor : minor;
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (signed === null || !reasonOk) return;
    mutation.mutate({ id: customerId, coin, amount: signed.toString(), reason: reason.trim() });
  };
  const amountError = touched && minor === null ? t(coin === 'usdt' ? 'customers.amountErrorUsd' : 'customers.amountErrorBtc') : undefined;
  const reasonError = touched && !reasonOk ? t('confirm.reasonError') : undefined;
  return (
    <Dialog open onClose={onClose} title={t('customers.adjustTitle')} description={t('customers.adjustText')} size="sm">
      <form onSubmit={submit} noValidate>
        <div className="admin-form-row">
          <div className="field">
            <label htmlFor="adjust-direction">{t('customers.direction')}</label>
            <select id="adjust-direction" value={direction} onChange={(e) => setDirection(e.target.value as 'credit' | 'debit')}>
              <option value="credit">{t('customers.credit')}</option>
              <option value="debit">{t('customers.debit')}</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="adjust-coin">{t('customers.coin')}</label>
            <select id="adjust-coin" value={coin} onChange={(e) => setCoin(e.target.value as Coin)}>
              <option value="usdt">{t('customers.coinUsd')}</option>
              <option value="btc">BTC</option>
            </select>
          </div>
        </div>
        <div className="field">
          <label htmlFor="adjust-amount">{coin === 'usdt' ? t('customers.amountUsd') : t('customers.amountBtc')}</label>
          <input
            id="adjust-amount" inputMode="decimal" autoComplete="off" value={amount} onChange={(e) => setAmount(e.target.value)}
            aria-invalid={amountError ? true : undefined} aria-describedby={amountError ? 'adjust-amount-error' : 'adjust-amount-hint'}
          />
          {amountError ? <p id="adjust-amount-error" className="field__error" role="alert">{amountError}</p>
            : <p id="adjust-amount-hint" className="field__hint">{signed !== null ? t(direction === 'credit' ? 'customers.willCredit' : 'customers.willDebit', { amount: coinAmount((minor ?? 0n).toString(), coin) }) : t('customers.amountHint')}</p>}
        </div>
        <div className="field">
          <label htmlFor="adjust-reason">{t('confirm.reason')}</label>
          <textarea
            id="adjust-reason" rows={3} value={reason} maxLength={ADMIN_LIMITS.reasonMax} onChange={(e) => setReason(e.target.value)}
            aria-invalid={reasonError ? true : undefined} aria-describedby={reasonError ? 'adjust-reason-error' : undefined}
          />
          {reasonError ? <p id="adjust-reason-error" className="field__error" role="alert">{reasonError}</p> : null}
        </div>
        <div className="dialog__footer">
          <Button variant="secondary" onClick={onClose}>{t('actions.cancel')}</Button>
          <Button type="submit" variant={direction === 'debit' ? 'danger' : 'primary'} busy={mutation.isPending}>
            {direction === 'credit' ? t('customers.credit') : t('customers.debit')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
