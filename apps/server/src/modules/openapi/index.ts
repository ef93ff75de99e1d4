// The API docs' face (decision 044): the app registers the document from here, and the domains whose routes it
// describes take the customer API's security and the internal tag from here.
export { CUSTOMER_API_SECURITY, INTERNAL_TAG, registerOpenApi } from './openapi.plugin.js';
