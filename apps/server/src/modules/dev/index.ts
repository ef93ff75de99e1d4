// Development helpers, never in production (decision 044): the e-mail outbox a person and the browser tests read.
export { DevOutboxRepository } from './dev-outbox.repository.js';
export { registerDev } from './dev.routes.js';
