// Gateways (decision 044): the links hosts behind NAT keep to their gateway, the trust (signing key, link tickets)
// the gateways check them by, and the console's gateways with the rule that keeps a gateway's port numbers apart.
export { GatewayLinksRepository } from './gateway-links.repository.js';
export { GatewayPorts } from './gateway-ports.js';
export { GatewayPortsRepository } from './gateway-ports.repository.js';
export { gatewayTrust, signLinkTicket, type GatewayTrust } from './gateway-trust.js';
export { GatewaysAdminRepository } from './gateways-admin.repository.js';
export { registerGatewaysAdminRoutes } from './gateways-admin.routes.js';
export { GatewaysAdminService } from './gateways-admin.service.js';
