// The ledger's face (decision 044), begun for the purchases that debit it; ledger is not yet a domain itself
// (not-yet-domains.json).
export type { LedgerService } from './ledger.service.js';
