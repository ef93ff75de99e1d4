// Health (decision 044): liveness, readiness (the database answers) and the caller's address, GET /api/v1/ip.
export { HealthRepository } from './health.repository.js';
export { registerHealth } from './health.routes.js';
