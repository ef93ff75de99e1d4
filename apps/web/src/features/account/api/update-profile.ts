import type { Me } from '@cellport/shared/schemas/account';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiPatch } from '../../../lib/api';
import { meQueryKey } from './get-me';

export interface ProfileInput { name: string; company_name: string; billing_address: string; vat_number: string }

export function useUpdateProfile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileInput) => apiPatch<Me>('/me', input),
    onSuccess: (me) => client.setQueryData(meQueryKey, me),
  });
}
