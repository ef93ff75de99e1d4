// Purchases (decision 044): buying and renewing ports from the balance (or for an order paid by card, crypto or
// PayPal), the purchase history, and a port's term: its jobs scheduled with the purchase and handled here.
export { registerPortLifecycleJobs } from './port-lifecycle-jobs.js';
export { PurchasesRepository, type StockFilter } from './purchases.repository.js';
export { registerPurchases } from './purchases.routes.js';
export { PurchasesService, type PaidWith, type PurchaseDeps, type PurchaseOptions } from './purchases.service.js';
