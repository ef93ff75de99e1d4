// Coupons (decision 044): checked on Add Proxies, locked and redeemed in the purchase's transaction, kept by the console.
export { registerCouponsAdminRoutes } from './coupons-admin.routes.js';
export { CouponsAdminService } from './coupons-admin.service.js';
export { CouponsRepository } from './coupons.repository.js';
export { registerCoupons } from './coupons.routes.js';
export { couponToApi, CouponsService, type CouponScope } from './coupons.service.js';
