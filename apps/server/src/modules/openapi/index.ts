// The API docs' face (decision 044), begun for the domains whose routes the docs describe; openapi is not yet a domain
// itself (not-yet-domains.json).
export { CUSTOMER_API_SECURITY, INTERNAL_TAG, registerOpenApi } from './openapi.plugin.js';
