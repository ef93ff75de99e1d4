// Moved (decision 044): the audit log is the domain modules/audit. This re-export keeps the folders being moved this
// week building; it goes when they have.
export { AuditLog, type AuditActor, type AuditChange } from '../../audit/index.js';
