// Accounts (decision 044): the signed-in customer's own account (profile, password, two-factor, sessions) and the
// console's customers (search, one customer's picture, deactivation, balance adjustments, all audited).
export { AccountSettingsService } from './account-settings.service.js';
export { registerAccountsAdminRoutes } from './accounts-admin.routes.js';
export { AccountsAdminService, type AccountsAdminDeps } from './accounts-admin.service.js';
export { AccountsRepository } from './accounts.repository.js';
export { registerAccounts } from './accounts.routes.js';
export { CustomersRepository, type AccountListing } from './customers.repository.js';
