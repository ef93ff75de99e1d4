// The customer's dashboard (decision 044): active and expiring ports, the last day's traffic, the latest notifications.
export { DashboardRepository } from './dashboard.repository.js';
export { registerDashboard } from './dashboard.routes.js';
export { DashboardService } from './dashboard.service.js';
