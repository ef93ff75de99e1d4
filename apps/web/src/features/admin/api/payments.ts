import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  AdminPaymentDetailResponse, AdminPaymentsQuery, AdminPaymentsResponse, CompletePaymentResponse, RefundRequest,
  RefundResponse,
} from '@cellport/shared/schemas/admin/payments';
import { ADMIN_KEY, adminGet, adminPost, toQuery } from './admin-client';

export const usePayments = (query: AdminPaymentsQuery) =>
  useQuery({
    queryKey: [ADMIN_KEY, 'payments', query],
    queryFn: () => adminGet<AdminPaymentsResponse>(`/payments${toQuery(query)}`),
    placeholderData: keepPreviousData,
  });
export const usePayment = (id: string) =>
  useQuery({ queryKey: [ADMIN_KEY, 'payment', id], queryFn: () => adminGet<AdminPaymentDetailResponse>(`/payments/${id}`) });
export const refundPayment = ({ id, ...body }: RefundRequest & { id: string }) => adminPost<RefundResponse>(`/payments/${id}/refund`, body);
export const completePayment = ({ id, reason }: { id: string; reason: string }) =>
  adminPost<CompletePaymentResponse>(`/payments/${id}/complete`, { reason });
