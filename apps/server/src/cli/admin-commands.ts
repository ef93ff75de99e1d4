// What the operator CLI does to accounts and hosts, as plain functions over the domains' operations (the CLI wraps
// them, tests call them).
import { loginSchema } from '@cellport/shared/schemas/auth';
import type { AccountListing } from '../modules/accounts/index.js';
import { AppError } from '../lib/app-error.js';

export class AdminCommandError extends Error {}

export type AccountSummary = AccountListing;

export type MakeAdminResult = { created: false; email: string } | { created: true; email: string; password: string };

/** The console's own operation (OperatorsService.create), so making an admin from the command line is audited the same way. */
export interface AdminCreation {
  create(actor: typeof CLI_ACTOR, email: string): Promise<{ admin: { email: string }; created: boolean; password: string | null }>;
}

/**
 * Makes the account with this e-mail an admin; when there is none, creates a verified admin account with a
 * generated password (returned once, never stored in clear). Audited as the console's promotion is: no admin, ip 'cli'.
 */
export async function makeAdmin(operators: AdminCreation, rawEmail: string): Promise<MakeAdminResult> {
  const { admin, password } = await operators.create(CLI_ACTOR, normalizeEmail(rawEmail));
  return password === null ? { created: false, email: admin.email } : { created: true, email: admin.email, password };
}

/** Who acted, in the audit log, when the operator used the command line: no admin, address 'cli'. */
export const CLI_ACTOR = { adminId: null, ip: 'cli' } as const;

/**
 * The console's customers (AccountsAdminService): its own setActive, so the command line is audited the same way,
 * and the reads the CLI names accounts by.
 */
export interface CliAccounts {
  setActive(actor: typeof CLI_ACTOR, userId: string, active: boolean): Promise<unknown>;
  findByEmail(email: string): Promise<{ id: string; email: string } | undefined>;
  sessionCount(userId: string): Promise<number>;
  everyAccount(): Promise<AccountListing[]>;
}

/**
 * Deactivates or reactivates an account through the console's operation: the flag and its audit entry commit
 * together, and deactivating ends every session of that account at once (the revocation goes out on the bus), so a
 * signed-in browser is out on its next request, not when its cookie expires.
 */
export async function setActive(accounts: CliAccounts, rawEmail: string, active: boolean): Promise<{ email: string; sessionsEnded: number }> {
  const email = normalizeEmail(rawEmail);
  const user = await accounts.findByEmail(email);
  if (!user) throw new AdminCommandError(`No account with the e-mail ${email}.`);
  const sessionsEnded = active ? 0 : await accounts.sessionCount(user.id);
  await accounts.setActive(CLI_ACTOR, user.id, active);
  return { email: user.email, sessionsEnded };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The console's own hosts operations (HostsAdminService): the list, and a key issued and audited as the console's. */
export interface HostKeys {
  list(): Promise<{ items: Array<{ id: string; name: string; address: string; hasKey: boolean; lastSeenAt: string | null; modemCount: number }> }>;
  issueKey(actor: typeof CLI_ACTOR, id: string): Promise<{ key: string; name: string; replaced: boolean }>;
}

/**
 * A new key for a host's agent, found by its name (exactly, else case-insensitively) or its id. Only the key's hash
 * is stored and it replaces the previous key, which stops working at once. Issued by the console's operation, so the
 * audit log records once that a key was issued from the command line (no admin, ip 'cli'), never the key.
 */
export async function issueKeyForHost(hosts: HostKeys, nameOrId: string): Promise<{ hostId: string; name: string; replaced: boolean; key: string }> {
  const wanted = nameOrId.trim();
  if (!wanted) throw new AdminCommandError('Name the host: npm run admin -- host-key <host name or id>.');
  const id = UUID.test(wanted) ? wanted.toLowerCase() : null;
  const named = (await hosts.list()).items.filter((h) => h.id === id || h.name.toLowerCase() === wanted.toLowerCase());
  const host = named.find((h) => h.id === id) ?? named.find((h) => h.name === wanted) ?? (named.length === 1 ? named[0] : undefined);
  if (!host) {
    if (named.length > 1) throw new AdminCommandError(`Several hosts are named like "${wanted}": give the exact name or the id (npm run admin -- hosts).`);
    throw new AdminCommandError(`No host named "${wanted}" or with that id. The hosts are listed by: npm run admin -- hosts`);
  }
  try {
    const { key, name, replaced } = await hosts.issueKey(CLI_ACTOR, host.id);
    return { hostId: host.id, name, replaced, key };
  } catch (error) {
    // Removed from the console between the list and the key (they are two transactions): say so, not a stack trace.
    if (error instanceof AppError && error.code === 'NOT_FOUND') {
      throw new AdminCommandError(`The host "${host.name}" was just removed. The hosts are listed by: npm run admin -- hosts`);
    }
    throw error;
  }
}

export interface HostSummary { id: string; name: string; address: string; hasKey: boolean; lastSeenAt: Date | null; modems: number }

/** Every host by name, with whether it has a key and when its agent last called (the console's list). */
export async function listHosts(hosts: HostKeys): Promise<HostSummary[]> {
  return (await hosts.list()).items.map((h) => ({
    id: h.id, name: h.name, address: h.address, hasKey: h.hasKey, lastSeenAt: h.lastSeenAt ? new Date(h.lastSeenAt) : null, modems: h.modemCount,
  }));
}

/** Every account, admins first, then by e-mail. */
export function listAccounts(accounts: Pick<CliAccounts, 'everyAccount'>): Promise<AccountSummary[]> {
  return accounts.everyAccount();
}

function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  // The sign-in form's own rule (an operator must be able to sign in with it), linear on any input (issue 26).
  if (!loginSchema.safeParse(email).success) throw new AdminCommandError(`"${raw}" is not an e-mail address.`);
  return email;
}
