// Customer webhooks (decision 044): endpoints and their signed, ordered deliveries; other domains publish events in
// the transaction of the change they tell about (publishWebhookEvent).
export { DeliveryWorker } from './delivery-worker.js';
export { WebhookSecretBox } from './webhook-signing.js';
export { registerWebhooks } from './webhooks.routes.js';
export { publishWebhookEvent, webhookEventInsert, WebhooksRepository } from './webhooks.repository.js';
export { WebhooksService } from './webhooks.service.js';
