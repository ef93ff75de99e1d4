// The webhooks' face (decision 044), begun for the domains that publish events; webhooks is not yet a domain itself
// (not-yet-domains.json).
export { publishWebhookEvent } from './webhook-events.js';
