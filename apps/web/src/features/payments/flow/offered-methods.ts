import { useSettings } from '../../../store/settings';
import type { PaymentMethodId } from './payment-order';

/**
 * The payment methods the server offers (GET /settings): card unless its provider is off, PayPal unless its mode
 * is off, crypto always. Until settings arrive, none — no button that cannot work.
 */
export function useOfferedMethods(): PaymentMethodId[] {
  const settings = useSettings();
  if (!settings.card) return [];
  const methods: PaymentMethodId[] = ['crypto'];
  if (settings.card.provider !== 'off') methods.push('card');
  if (settings.PAYPAL_MODE && settings.PAYPAL_MODE !== 'off') methods.push('paypal');
  return methods;
}
