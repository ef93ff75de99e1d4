import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useAppStore } from '../../store';
import { accountQuery } from '../../store/catalog-queries';

/**
 * GET /api/v1/account → balances in minor units, copied into the client store (spec §3 "account") so any page can
 * read them. Until the endpoint answers, or when it fails, `account` stays null and the header shows '—'.
 */
export function useAccountBalance() {
  const setAccount = useAppStore((s) => s.setAccount);
  const query = useQuery({ ...accountQuery, staleTime: 15_000 });
  useEffect(() => { if (query.data) setAccount(query.data); }, [query.data, setAccount]);
  return query;
}
