// The console overview (decision 044): the operator's front page — revenue net of refunds, balance spending, ports,
// stock, replacements and customers — kept a few seconds per period.
export { OverviewCache } from './overview-cache.js';
export { registerOverviewAdminRoutes } from './overview-admin.routes.js';
export { OverviewRepository } from './overview.repository.js';
