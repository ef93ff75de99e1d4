// Ports (decision 044): a customer's ports (list, settings, rotation, rotation links, interval rotation) and the
// console's suspend and resume; the kept lists the dashboard polls; what buying a port writes into it.
export { registerIntervalRotation } from './interval-rotation.js';
export { portFingerprint } from './port-fingerprint.js';
export { newProxyLogin, newProxyPassword, newRotationNonce, rotationTokenHash } from './port-credentials.js';
export { PortsAdminRepository } from './ports-admin.repository.js';
export { registerPortsAdminRoutes } from './ports-admin.routes.js';
export { PortsAdminService } from './ports-admin.service.js';
export { PortsListCache, type PortsListCacheOptions } from './ports-list-cache.js';
export { PortsRepository, type PortListingRow } from './ports.repository.js';
export { registerPorts } from './ports.routes.js';
export { PortsService } from './ports.service.js';
export { RotationRepository } from './rotation.repository.js';
export { RotationService, type PublishWebhookEvent, type RotationResult } from './rotation.service.js';
