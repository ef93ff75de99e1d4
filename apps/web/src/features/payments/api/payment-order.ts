import type { Language } from '@cellport/shared/constants';
import type { PaymentOrderResponse, PendingPayment } from '@cellport/shared/schemas/payments';
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';

/** How often a payment still being confirmed is asked again (the dashboard's other polls run every 3 s too). */
const PENDING_POLL_MS = 3_000;

/**
 * GET /payment/orders/:reference — one payment as it stands now, by our order id or the card intent id. `language`
 * is the reader's (the return page has no language segment to send); its description comes back in it.
 */
export const fetchPaymentOrder = (reference: string, language: Language) =>
  apiGet<PaymentOrderResponse>(`/payment/orders/${encodeURIComponent(reference)}`, {
    headers: { accept: 'application/json', 'accept-language': language },
  }).then((r) => r.data);

/** The payment, asked again while it is pending, so the page says "credited" as soon as the provider's IPN books it. */
export function usePaymentOrder(reference: string | null, language: Language) {
  return useQuery<PendingPayment>({
    queryKey: ['payment-order', reference, language],
    queryFn: () => fetchPaymentOrder(reference!, language),
    enabled: reference !== null,
    retry: false,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? PENDING_POLL_MS : false),
  });
}
