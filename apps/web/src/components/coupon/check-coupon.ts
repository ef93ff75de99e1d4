import type { CouponCheckRequest, CouponCheckResponse } from '@cellport/shared/schemas/catalog';
import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../lib/api';

/**
 * Asks whether a coupon applies to a tariff and country (either may be null when the basket has no single one);
 * a refusal throws ApiError with the reason's code.
 */
export function useCheckCoupon() {
  return useMutation({
    mutationFn: (request: CouponCheckRequest) => apiPost<CouponCheckResponse>('/coupons/check', request),
  });
}
