// Hosts (decision 044): the proxy hosts — the console's inventory of them (hosts-admin.*) and of their modems
// (modems-admin.*, with the CSV import and the stock report; queries in modems.repository.ts), their agents' ingest
// keys (host-keys.repository.ts) and the host protocol the agents speak (hosts.server.ts, decision 016: desired state,
// heartbeats, traffic batches, rotation relay), with the speed-test target they measure against.
export { demoHostKey, demoHosts, HOST_KEY_PREFIX, hostForKey, issueHostKey } from './host-keys.repository.js';
export { APPLY_WAIT_MS, portServesDesired } from './host-serves-desired.js';
export { HostStateRepository } from './host-state.repository.js';
export { registerHostsAdminRoutes } from './hosts-admin.routes.js';
export { HostsAdminRepository } from './hosts-admin.repository.js';
export { HostsAdminService, type HostsActor, type IssuedHostKey } from './hosts-admin.service.js';
export { HostsRepository } from './hosts.repository.js';
export { startHostProtocol, type HostProtocolServer } from './hosts.server.js';
export { registerModemsAdminRoutes } from './modems-admin.routes.js';
export { ModemsAdminService } from './modems-admin.service.js';
export { ModemsRepository } from './modems.repository.js';
export { registerSpeedTest } from './speed-test.routes.js';
