import type { Coupon } from '@cellport/shared/schemas/catalog';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n';
import { formatUsd } from '../../../lib/money';
import { useCheckCoupon } from '../api/check-coupon';
import { errorText } from '../../../lib/translate-api-error';

/**
 * Coupon input with Apply. The server checks it against the chosen tariff and country and answers the discount or a
 * reason; the applied coupon is reported up and dropped again whenever the code is edited.
 */
export function CouponField({ tariffId, countryId, applied, onApplied }: {
  tariffId: string | null;
  countryId: string | null;
  applied: Coupon | null;
  onApplied: (coupon: Coupon | null) => void;
}) {
  const { t } = useT(['add-proxy', 'errors']);
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
      ? <p id={messageId} className="ap-coupon__ok" role="status">
          {applied.type === 'percent'
            ? t('coupon.appliedPercent', { name: applied.name, percent: applied.percent })
            : t('coupon.appliedFixed', { name: applied.name, amount: formatUsd(applied.amount ?? '0') })}
        </p>
      : null;

  return (
    <div className="field ap-coupon">
      <label htmlFor={inputId}>{t('coupon.label')}</label>
      <div className="ap-coupon__row">
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
        <Button variant="secondary" onClick={apply} busy={check.isPending} disabled={!code.trim() || !tariffId}>
          {t('coupon.apply')}
        </Button>
      </div>
      {message}
    </div>
  );
}
