import type { Coupon } from '@cellport/shared/schemas/catalog';
import { useId, useState } from 'react';
import { useT } from '../../lib/i18n';
import { formatUsd } from '../../lib/money';
import { errorText } from '../../lib/translate-api-error';
import { Button } from '../ui/button';
import { useCheckCoupon } from './check-coupon';

/**
 * Coupon input with Apply, for Add Proxies and Billing. The server checks it against the tariff and country (null when
 * there is no single one) and answers the discount or a reason; the applied coupon is reported up and dropped again
 * whenever the code is edited.
 *
 * Each page keeps its own words and look: `ns` is the locale namespace holding its `coupon.*` strings, `className` the
 * block its stylesheet styles (`__row`, `__ok`).
 */
export function CouponField({ ns, className, tariffId, countryId, applied, onApplied, disabled }: {
  ns: 'add-proxy' | 'billing';
  className: string;
  tariffId: string | null;
  countryId: string | null;
  applied: Coupon | null;
  onApplied: (coupon: Coupon | null) => void;
  /** Apply stays off while this is true (and while the code is empty). */
  disabled?: boolean;
}) {
  const { t } = useT([ns, 'errors']);
  const [code, setCode] = useState(applied?.name ?? '');
  const check = useCheckCoupon();
  const inputId = useId();
  const messageId = useId();

  function apply() {
    const name = code.trim();
    if (!name) return;
    check.mutate(
      { coupon_name: name, tariff_id: tariffId, country_id: countryId },
      { onSuccess: ({ coupon }) => onApplied(coupon), onError: () => onApplied(null) },
    );
  }

  const message = check.isError
    ? <p id={messageId} className="field__error" role="alert">{errorText(t, check.error)}</p>
    : applied
      ? <p id={messageId} className={`${className}__ok`} role="status">
          {applied.type === 'percent'
            ? t('coupon.appliedPercent', { name: applied.name, percent: applied.percent })
            : t('coupon.appliedFixed', { name: applied.name, amount: formatUsd(applied.amount ?? '0') })}
        </p>
      : null;

  return (
    <div className={`field ${className}`}>
      <label htmlFor={inputId}>{t('coupon.label')}</label>
      <div className={`${className}__row`}>
        <input
          id={inputId}
          value={code}
          autoComplete="off"
          maxLength={64}
          aria-invalid={check.isError || undefined}
          aria-describedby={message ? messageId : undefined}
          onChange={(e) => { setCode(e.target.value); if (applied) onApplied(null); check.reset(); }}
          onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); apply(); } }}
        />
        <Button variant="secondary" onClick={apply} busy={check.isPending} disabled={!code.trim() || disabled}>
          {t('coupon.apply')}
        </Button>
      </div>
      {message}
    </div>
  );
}
