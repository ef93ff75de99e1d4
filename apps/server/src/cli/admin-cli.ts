// The operator CLI (`npm run admin -- <command>`): opens the server's own database from the same settings,
// migrates it, runs one command and prints the outcome for a person.
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { agentEnvLines } from '@cellport/shared/schemas/admin/hosts';
import { AdminCommandError, issueKeyForHost, listAccounts, listHosts, makeAdmin, setActive } from './admin-commands.js';

export const usage = `Cellport operator commands

  npm run admin -- create EMAIL       make that account an admin, or create a verified admin account
                                      and print its generated password (shown once)
  npm run admin -- deactivate EMAIL   stop the account from signing in and end all its sessions
  npm run admin -- activate EMAIL     allow the account to sign in again
  npm run admin -- list               every account with its role and status
  npm run admin -- host-key HOST      issue a new key for a proxy host's agent (HOST: its name or id) and
                                      print it with the agent's settings (shown once; the old key stops working)
  npm run admin -- hosts              every proxy host with its id, whether it has a key, and its last contact

It opens the same database as the server, from the same settings: PostgreSQL when DATABASE_URL is set,
otherwise the embedded database in DATA_DIR (default ./data).
The embedded database (PGlite) allows ONE process at a time: stop the server before running these commands
against DATA_DIR. With PostgreSQL they can run while the server is up.`;

export interface CliIo { out(line: string): void; err(line: string): void }

const consoleIo: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) };

/** Runs one command; returns the process exit code (0 done, 1 refused or failed, 2 wrong usage). */
export async function runAdminCli(args: string[], env: Record<string, string | undefined> = process.env, io: CliIo = consoleIo): Promise<number> {
  const [command, email, ...rest] = args;
  const needsEmail = command === 'create' || command === 'deactivate' || command === 'activate' || command === 'host-key';
  if (command === 'help' || command === '--help' || command === '-h') {
    io.out(usage);
    return 0;
  }
  if (!command || !(needsEmail || command === 'list' || command === 'hosts') || (needsEmail ? !email || rest.length : email)) {
    io.err(usage);
    return 2;
  }
  const config = loadConfig(env);
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 });
  try {
    await migrateToLatest(database.db);
    await run(database.db, command, email ?? '', io, config.publicUrl);
    return 0;
  } catch (error) {
    if (error instanceof AdminCommandError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

async function run(db: Database, command: string, email: string, io: CliIo, publicUrl: string): Promise<void> {
  switch (command) {
    case 'create': {
      const result = await makeAdmin(db, email);
      if (!result.created) io.out(`${result.email} is now an admin.`);
      else io.out(`Created the admin account ${result.email} (e-mail verified).\nPassword: ${result.password}\nIt is shown only now: keep it safe, and change it on the account page.`);
      return;
    }
    case 'deactivate': {
      const { email: who, sessionsEnded } = await setActive(db, email, false);
      io.out(`${who} is deactivated: it cannot sign in; ${sessionsEnded} session(s) ended.`);
      return;
    }
    case 'activate': {
      const { email: who } = await setActive(db, email, true);
      io.out(`${who} is active again: it can sign in.`);
      return;
    }
    case 'list': {
      const accounts = await listAccounts(db);
      if (!accounts.length) {
        io.out('No accounts yet.');
        return;
      }
      const rows = accounts.map((a) => [
        a.email, a.role, a.isActive ? 'active' : 'deactivated', a.isVerified ? 'verified' : 'unverified',
        a.uses2fa ? '2fa' : '-', a.createdAt.toISOString().slice(0, 10),
      ]);
      io.out(table(['E-MAIL', 'ROLE', 'STATUS', 'E-MAIL CHECK', '2FA', 'CREATED'], rows));
      return;
    }
    case 'host-key': {
      const issued = await issueKeyForHost(db, email);
      io.out([
        `A new key for the host ${issued.name} (${issued.hostId})${issued.replaced ? '; its previous key no longer works' : ''}.`,
        'It is shown only now (the server keeps only its hash). On that host, start the agent with:',
        '',
        ...agentEnvLines(publicUrl, issued.key).map((line) => `  ${line} \\`),
        '  npm run agent',
      ].join('\n'));
      return;
    }
    case 'hosts': {
      const hosts = await listHosts(db);
      if (!hosts.length) {
        io.out('No hosts yet: add one in the console (Inventory → Hosts).');
        return;
      }
      const rows = hosts.map((h) => [
        h.name, h.id, h.address, String(h.modems), h.hasKey ? 'yes' : 'no', h.lastSeenAt ? h.lastSeenAt.toISOString() : 'never',
      ]);
      io.out(table(['NAME', 'ID', 'ADDRESS', 'MODEMS', 'KEY', 'LAST CONTACT'], rows));
      return;
    }
  }
}

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(head), ...rows.map(line)].join('\n');
}
