// The card subscriptions' face (decision 044), begun for what the port terms ask of them; subscriptions is not yet a
// domain itself (not-yet-domains.json).
export { renewedByCardSubscription } from './renewed-by-subscription.js';
