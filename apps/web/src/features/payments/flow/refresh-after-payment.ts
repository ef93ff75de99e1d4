import type { QueryClient } from '@tanstack/react-query';

/**
 * After a payment completes: the header balance (['account']) updates at once, and the ports, the payment
 * history, the pending list and the invoices are fetched again.
 */
export async function refreshAfterPayment(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    ['account', 'modems', 'payments', 'pending-payments', 'invoices', 'modems-count'].map((key) =>
      queryClient.invalidateQueries({ queryKey: [key] })),
  );
}
