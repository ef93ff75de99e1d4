// A port's history (decision 044): its uptime over 24 h / 7 d / 30 d and its last IPs, read from the logs the modems'
// triggers write.
export { PortHistoryRepository } from './port-history.repository.js';
export { registerPortHistory } from './port-history.routes.js';
export { PortHistoryService } from './port-history.service.js';
