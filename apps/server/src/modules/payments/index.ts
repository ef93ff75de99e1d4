// The payments' face (decision 044), begun for the domains that charge saved cards (subscriptions); payments is not
// yet a domain itself (not-yet-domains.json).
export { cardError, CardCustomers } from './card-customers.js';
