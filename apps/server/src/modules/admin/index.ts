// The console's face (decision 044): what other modules take from it — the audit log every operator action is
// recorded in, the console's request conventions and its list paging. `admin` is not yet a domain itself
// (not-yet-domains.json); its sub-areas move into the domains they serve.
export { AuditLog, type AuditActor, type AuditChange } from './audit/audit.service.js';
export { actorOf, adminRateLimits, cappedTotal, containsPattern, iso, LIST_COUNT_CAP, paging, type ListTotal, type Paging } from './admin-http.js';
