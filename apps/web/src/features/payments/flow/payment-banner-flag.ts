// Spec §2: after a card payment succeeds "a flag is set to show a banner" on the proxies page. The flag lives in
// sessionStorage so it survives the full page load a subscription uses, and is read (and cleared) once. It holds the
// payment's reference (our order id or the card intent id) so the banner can say what the payment's state truly is.
const KEY = 'cellport.paymentBanner';

/** `reference`: the order id or the card payment intent id of the payment just made; '1' when it is not known. */
export function setPaymentBannerFlag(reference: string | null = null): void {
  try { sessionStorage.setItem(KEY, reference ?? '1'); } catch { /* storage disabled: no banner */ }
}

/** The payment the banner is for: null when there is no flag, '' when the payment's reference is not known. */
export function takePaymentBannerFlag(): string | null {
  try {
    const value = sessionStorage.getItem(KEY);
    if (value !== null) sessionStorage.removeItem(KEY);
    return value === null ? null : value === '1' ? '' : value;
  } catch {
    return null;
  }
}

// The language of the page a customer left for PayPal: /thank-you-for-order has no language segment.
const LANGUAGE_KEY = 'cellport.paymentLanguage';
export const rememberPaymentLanguage = (language: string) => { try { sessionStorage.setItem(LANGUAGE_KEY, language); } catch { /* ignore */ } };
export const paymentLanguage = (): string | null => { try { return sessionStorage.getItem(LANGUAGE_KEY); } catch { return null; } };
