import { useQuery } from '@tanstack/react-query';
import { accountQuery } from '../../store/catalog-queries';

/**
 * GET /api/v1/account → balances in minor units (spec §3 "account"), held by the query cache alone (decision 020):
 * any page reads them with useAccount(). Until the endpoint answers, or when it fails, the header shows '—'.
 */
export function useAccountBalance() {
  return useQuery({ ...accountQuery, staleTime: 15_000 });
}
