// Gateways (decision 044): the links hosts behind NAT keep to their gateway, and the trust (signing key, link
// tickets) the gateways check them by. The console's gateways are in admin/admin-inventory until hosts moves.
export { GatewayLinksRepository } from './gateway-links.repository.js';
export { gatewayTrust, signLinkTicket, type GatewayTrust } from './gateway-trust.js';
