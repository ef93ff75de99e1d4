// The ledger (decision 044): balances and the entries that changed them, booked only in the caller's transaction.
export { type CoinColumn, type LedgerBooking, LedgerRepository } from './ledger.repository.js';
export { registerLedger, type DepositAddresses } from './ledger.routes.js';
export { type LedgerEntryInput, LedgerService, toLedgerEntry } from './ledger.service.js';
