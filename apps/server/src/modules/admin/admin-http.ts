// Moved (decision 044): the console's request conventions are lib/console-http.ts, its lists' counting
// lib/console-lists.repository.ts. This re-export keeps the folders being moved this week building; it goes when they have.
export { actorOf, adminRateLimits, iso, paging, type AuditActor, type Paging } from '../../lib/console-http.js';
export { cappedTotal, containsPattern, LIST_COUNT_CAP, type ListTotal } from '../../lib/console-lists.repository.js';
