import { useQuery } from '@tanstack/react-query';
import type {
  AdminCoupon, CouponPatchRequest, CouponRedemptionsResponse, CouponRequest, CouponsResponse,
} from '@cellport/shared/schemas/admin/coupons';
import { ADMIN_KEY, adminDelete, adminGet, adminPatch, adminPost } from './admin-client';

type CouponResponse = { coupon: AdminCoupon };

export const useCoupons = () => useQuery({ queryKey: [ADMIN_KEY, 'coupons'], queryFn: () => adminGet<CouponsResponse>('/coupons') });
export const useCouponRedemptions = (id: string | null) =>
  useQuery({
    queryKey: [ADMIN_KEY, 'coupon-redemptions', id],
    queryFn: () => adminGet<CouponRedemptionsResponse>(`/coupons/${id}/redemptions`),
    enabled: id !== null,
  });
export const createCoupon = (body: CouponRequest) => adminPost<CouponResponse>('/coupons', body);
export const updateCoupon = ({ id, ...body }: CouponPatchRequest & { id: string }) => adminPatch<CouponResponse>(`/coupons/${id}`, body);
export const deleteCoupon = (id: string) => adminDelete(`/coupons/${id}`);
