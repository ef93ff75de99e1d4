// Card subscriptions (decision 040, decision 044): as the provider holds them, kept true by its events and by the
// customer's and the console's changes; the customer's and the console's routes, and the reminder and sandbox jobs.
export { SubscriptionSync, type ChargeFailure } from './subscription-sync.js';
export { registerSubscriptionJobs } from './subscription-jobs.js';
export { registerSubscriptionsAdminRoutes } from './subscriptions-admin.routes.js';
export { renewedByCardSubscription, SubscriptionsRepository } from './subscriptions.repository.js';
export { registerSubscriptions } from './subscriptions.routes.js';
export { SubscriptionsService } from './subscriptions.service.js';
