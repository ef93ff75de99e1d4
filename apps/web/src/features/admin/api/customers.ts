import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { OkResponse } from '@cellport/shared/schemas/admin/common';
import type {
  BalanceAdjustmentRequest, BalanceAdjustmentResponse, CustomerDetailResponse, CustomerResponse, CustomersResponse,
} from '@cellport/shared/schemas/admin/customers';
import { ADMIN_KEY, adminGet, adminPost, toQuery } from './admin-client';

/** GET /admin/customers?q=&page= */
export const useCustomers = (q: string, page: number, pageSize = 50) =>
  useQuery({
    queryKey: [ADMIN_KEY, 'customers', q, page, pageSize],
    queryFn: () => adminGet<CustomersResponse>(`/customers${toQuery({ q, page, pageSize })}`),
    placeholderData: keepPreviousData,
  });

/** GET /admin/customers/:id */
export const useCustomer = (id: string) =>
  useQuery({ queryKey: [ADMIN_KEY, 'customer', id], queryFn: () => adminGet<CustomerDetailResponse>(`/customers/${id}`) });

export type CustomerAction = 'deactivate' | 'reactivate' | 'reset-2fa' | 'resend-confirmation';

/** POST /admin/customers/:id/{deactivate|reactivate|reset-2fa|resend-confirmation} with an optional note. */
export const customerAction = ({ id, action, reason }: { id: string; action: CustomerAction; reason?: string }) =>
  adminPost<CustomerResponse | OkResponse>(`/customers/${id}/${action}`, reason ? { reason } : {});

/** POST /admin/customers/:id/balance-adjustments */
export const adjustBalance = ({ id, ...body }: BalanceAdjustmentRequest & { id: string }) =>
  adminPost<BalanceAdjustmentResponse>(`/customers/${id}/balance-adjustments`, body);
