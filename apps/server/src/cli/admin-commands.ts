// What the operator CLI does to accounts, as plain functions over the domains' operations (the CLI wraps them, tests
// call them).
import { loginSchema } from '@cellport/shared/schemas/auth';
import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import type { AccountListing } from '../modules/accounts/index.js';
import { issueHostKey } from '../modules/hosts/index.js';

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

/**
 * A new key for a host's agent, found by its name (exactly, else case-insensitively) or its id. Only the key's hash
 * is stored and it replaces the previous key, which stops working at once. The audit log records that a key was
 * issued from the command line (no admin, ip 'cli'), never the key.
 */
export async function issueKeyForHost(db: Database, nameOrId: string): Promise<{ hostId: string; name: string; replaced: boolean; key: string }> {
  const wanted = nameOrId.trim();
  if (!wanted) throw new AdminCommandError('Name the host: npm run admin -- host-key <host name or id>.');
  return db.transaction().execute(async (trx) => {
    const hosts = await trx.selectFrom('hosts').select(['id', 'name', 'ingest_key_hash'])
      .where((eb) => eb.or([
        eb(sql<string>`lower(name)`, '=', wanted.toLowerCase()),
        ...(UUID.test(wanted) ? [eb('id', '=', wanted.toLowerCase())] : []),
      ]))
      .forUpdate().execute();
    const host = hosts.find((h) => h.id === wanted.toLowerCase()) ?? hosts.find((h) => h.name === wanted) ?? (hosts.length === 1 ? hosts[0] : undefined);
    if (!host) {
      if (hosts.length > 1) throw new AdminCommandError(`Several hosts are named like "${wanted}": give the exact name or the id (npm run admin -- hosts).`);
      throw new AdminCommandError(`No host named "${wanted}" or with that id. The hosts are listed by: npm run admin -- hosts`);
    }
    const key = await issueHostKey(trx, host.id);
    const replaced = host.ingest_key_hash !== null;
    await trx.insertInto('audit_log').values({
      admin_id: null, action: 'host.key-issue', target_type: 'host', target_id: host.id,
      before: JSON.stringify({ name: host.name, hadKey: replaced }), after: JSON.stringify({ name: host.name, keyReplaced: replaced, via: 'cli' }), ip: 'cli',
    }).execute();
    return { hostId: host.id, name: host.name, replaced, key };
  });
}

export interface HostSummary { id: string; name: string; address: string; hasKey: boolean; lastSeenAt: Date | null; modems: number }

/** Every host by name, with whether it has a key and when its agent last called. */
export async function listHosts(db: Database): Promise<HostSummary[]> {
  const rows = await db.selectFrom('hosts as h')
    .select(['h.id', 'h.name', 'h.address', 'h.ingest_key_hash', 'h.last_seen_at'])
    .select((eb) => eb.selectFrom('modems').select(sql<string>`count(*)`.as('n')).whereRef('modems.host_id', '=', 'h.id').as('modems'))
    .orderBy('h.name').execute();
  return rows.map((r) => ({
    id: r.id, name: r.name, address: r.address, hasKey: r.ingest_key_hash !== null, lastSeenAt: r.last_seen_at, modems: Number(r.modems ?? 0),
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
