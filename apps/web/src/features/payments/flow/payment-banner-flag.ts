// Spec §2: after a card payment succeeds "a flag is set to show a banner" on the proxies page. The flag lives in
// sessionStorage so it survives the full page load a subscription uses, and is read (and cleared) once.
const KEY = 'cellport.paymentBanner';

export function setPaymentBannerFlag(): void {
  try { sessionStorage.setItem(KEY, '1'); } catch { /* storage disabled: no banner */ }
}

export function takePaymentBannerFlag(): boolean {
  try {
    const set = sessionStorage.getItem(KEY) === '1';
    if (set) sessionStorage.removeItem(KEY);
    return set;
  } catch {
    return false;
  }
}

// The language of the page a customer left for PayPal: /thank-you-for-order has no language segment.
const LANGUAGE_KEY = 'cellport.paymentLanguage';
export const rememberPaymentLanguage = (language: string) => { try { sessionStorage.setItem(LANGUAGE_KEY, language); } catch { /* ignore */ } };
export const paymentLanguage = (): string | null => { try { return sessionStorage.getItem(LANGUAGE_KEY); } catch { return null; } };
