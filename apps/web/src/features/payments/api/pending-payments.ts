import type { PendingPaymentsResponse } from '@cellport/shared/schemas/payments';
import { queryOptions } from '@tanstack/react-query';
import { apiGet } from '../../../lib/api';
import { pendingPaymentsStore } from '../../../store/pending-payments';

/** GET /pending-payments: every pending payment of the customer (crypto, card, PayPal); loads the store's list. */
export const pendingPaymentsQuery = queryOptions({
  queryKey: ['pending-payments'],
  queryFn: async () => {
    const { data } = await apiGet<PendingPaymentsResponse>('/pending-payments');
    pendingPaymentsStore.getState().load(data);
    return data;
  },
});
