// API keys (decision 044): customers' keys with their scopes and monthly spending caps, resolved for the Bearer
// routes and MCP, and the spend a purchase through a key records in its own transaction.
export { ApiKeysRepository } from './api-keys.repository.js';
export { registerApiKeys } from './api-keys.routes.js';
export { ApiKeysService, type NewApiKey } from './api-keys.service.js';
