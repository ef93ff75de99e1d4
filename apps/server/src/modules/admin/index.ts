// The console's face (decision 044): `admin` is not yet a domain itself (not-yet-domains.json); its sub-areas move into
// the domains they serve. What it offered the domains moved out: the audit log is the domain `audit`, the console's
// request conventions and list paging are lib/console-http.ts and lib/console-lists.repository.ts. These re-exports
// keep the folders being moved this week building; they go when they have.
export { AuditLog, type AuditActor, type AuditChange } from '../audit/index.js';
export { actorOf, adminRateLimits, iso, paging, type Paging } from '../../lib/console-http.js';
export { cappedTotal, containsPattern, LIST_COUNT_CAP, type ListTotal } from '../../lib/console-lists.repository.js';
