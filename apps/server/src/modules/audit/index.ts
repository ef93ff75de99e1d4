// The audit log (decision 044): every operator action, and the system's and customers' changes worth a trace, recorded
// in the transaction of the change (AuditLog.record, with secrets redacted), and the console's search of it.
export { registerAuditAdminRoutes } from './audit-admin.routes.js';
export { AuditRepository } from './audit.repository.js';
export { AuditLog, type AuditActor, type AuditChange } from './audit.service.js';
export { REDACTED, redact } from './redact.js';
