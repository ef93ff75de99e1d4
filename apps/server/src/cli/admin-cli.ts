// The operator CLI (`npm run admin -- <command>`): opens the server's own database from the same settings,
// migrates it, runs one command and prints the outcome for a person.
import { composeServices } from '../composition.js';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type DatabaseHandle } from '../db/database.js';
import { cliLogger } from './cli-logger.js';
import { migrateToLatest } from '../db/migrate.js';
import { agentEnvLines } from '@cellport/shared/schemas/admin/hosts';
import { AdminCommandError, issueKeyForHost, listAccounts, listHosts, makeAdmin, setActive } from './admin-commands.js';
import { backupStopped, restoreEmbedded, writeBackupFile } from './backup.js';
import { askServer, controlSocketPath } from './control-socket.js';

export const usage = `Cellport operator commands

  npm run admin -- create EMAIL       make that account an admin, or create a verified admin account
                                      and print its generated password (shown once)
  npm run admin -- deactivate EMAIL   stop the account from signing in and end all its sessions
  npm run admin -- activate EMAIL     allow the account to sign in again
  npm run admin -- list               every account with its role and status
  npm run admin -- host-key HOST      issue a new key for a proxy host's agent (HOST: its name or id) and
                                      print it with the agent's settings (shown once; the old key stops working)
  npm run admin -- hosts              every proxy host with its id, whether it has a key, and its last contact
  npm run admin -- backup FILE        the embedded database into FILE (tar.gz), consistent: from the running
                                      server when one uses DATA_DIR, otherwise straight from DATA_DIR
  npm run admin -- restore FILE [--force]
                                      a backup into DATA_DIR with no server running; --force replaces a
                                      database there (kept aside as DATA_DIR/pglite.before-restore-<time>)

It opens the same database as the server, from the same settings: PostgreSQL when DATABASE_URL is set,
otherwise the embedded database in DATA_DIR (default ./data).
The embedded database (PGlite) allows ONE process at a time: while a server uses DATA_DIR, these commands
refuse (except backup, which the server answers itself); stop the server first. With PostgreSQL they can run
while the server is up, and backups are made with pg_dump and pg_restore (README, Backups).`;

export interface CliIo { out(line: string): void; err(line: string): void }

const consoleIo: CliIo = { out: (l) => console.log(l), err: (l) => console.error(l) };

/** Runs one command; returns the process exit code (0 done, 1 refused or failed, 2 wrong usage). */
export async function runAdminCli(args: string[], env: Record<string, string | undefined> = process.env, io: CliIo = consoleIo): Promise<number> {
  const [command, email, ...rest] = args;
  if (command === 'backup' || command === 'restore') return backupCommand(command, email, rest, env, io);
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
  if (!config.DATABASE_URL && await askServer(config.DATA_DIR, 'ping')) {
    io.err(serverRunning(config.DATA_DIR));
    return 1;
  }
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: 2 });
  try {
    return await refusalsSaid(io, async () => {
      await migrateToLatest(database.db);
      await run(database, config, command, email ?? '', io);
      return 0;
    });
  } finally {
    await database.close();
  }
}

/** Runs a command: an AdminCommandError (a refusal) is said on stderr and exits 1; anything else is a crash. */
async function refusalsSaid(io: CliIo, command: () => Promise<number>): Promise<number> {
  try {
    return await command();
  } catch (error) {
    if (error instanceof AdminCommandError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  }
}

const serverRunning = (dataDir: string) => `A Cellport server is using the embedded database in ${dataDir} (it answers on ${controlSocketPath(dataDir)}). `
  + 'The embedded database allows one process: stop the server, run this command, then start the server again.';

const secretNote = (config: { SESSION_SECRET?: string | undefined; DATA_DIR: string }) =>
  'The backup holds the database only. Webhook signing secrets and the Telegram token in it are sealed with the server\'s secret: '
  + (config.SESSION_SECRET ? 'restore it where SESSION_SECRET is the same.' : `keep ${config.DATA_DIR}/secret with it (SESSION_SECRET is unset, so that file is the secret).`);

/** backup FILE and restore FILE [--force]: the embedded database; PostgreSQL is pointed to pg_dump and pg_restore. */
async function backupCommand(command: 'backup' | 'restore', file: string | undefined, rest: string[], env: Record<string, string | undefined>, io: CliIo): Promise<number> {
  const force = command === 'restore' && rest.length === 1 && rest[0] === '--force';
  if (!file || file.startsWith('-') || (rest.length && !force)) {
    io.err(usage);
    return 2;
  }
  const config = loadConfig(env);
  if (config.DATABASE_URL) {
    io.err(command === 'backup'
      ? `DATABASE_URL is set: back PostgreSQL up with its own tool, while the server runs:\n  pg_dump --format=custom --file=${file} "$DATABASE_URL"\n(README, Backups.)`
      : `DATABASE_URL is set: restore PostgreSQL with its own tool, into an empty database, with the servers stopped:\n  pg_restore --no-owner --exit-on-error --dbname="$DATABASE_URL" ${file}\n(README, Backups.)`);
    return 1;
  }
  return refusalsSaid(io, async () => {
    if (command === 'backup') {
      const answer = await askServer(config.DATA_DIR, 'backup');
      if (answer && !answer.ok) throw new AdminCommandError(`The running server could not make the backup: ${answer.error}`);
      const data = answer ? answer.data : await backupStopped(config.DATA_DIR);
      await writeBackupFile(file, data);
      io.out(`Backed up the embedded database in ${config.DATA_DIR} to ${file} (${(data.length / 1048576).toFixed(1)} MB, `
        + `${answer ? 'from the running server' : 'no server was running'}).\nRestore it with: npm run admin -- restore ${file}\n${secretNote(config)}`);
      return 0;
    }
    if (await askServer(config.DATA_DIR, 'ping')) {
      io.err(serverRunning(config.DATA_DIR));
      return 1;
    }
    const { contents, movedAside } = await restoreEmbedded(config.DATA_DIR, file, { force });
    io.out([
      `Restored ${file} into ${config.DATA_DIR}: ${contents.customers} customer(s), ${contents.ports} port(s), `
        + `${contents.ledgerEntries} ledger entr${contents.ledgerEntries === 1 ? 'y' : 'ies'}, ${contents.invoices} invoice(s).`,
      ...(movedAside ? [`The database that was there is kept in ${movedAside}; delete it when you no longer need it.`] : []),
      'Start the server as usual.',
    ].join('\n'));
    return 0;
  });
}

async function run(database: DatabaseHandle, config: Config, command: string, email: string, io: CliIo): Promise<void> {
  const publicUrl = config.publicUrl;
  // The console's operations, built by the same composition root as the server's (decision 019): what the CLI
  // changes is audited and announced on the bus exactly as the console's change is.
  const accounts = () => composeServices({ config, database, log: cliLogger(io) }).services.admin.customers;
  const operators = () => composeServices({ config, database, log: cliLogger(io) }).services.admin.admins;
  const hosts = () => composeServices({ config, database, log: cliLogger(io) }).services.admin.hosts;
  switch (command) {
    case 'create': {
      const result = await makeAdmin(operators(), email);
      if (!result.created) io.out(`${result.email} is now an admin.`);
      else io.out(`Created the admin account ${result.email} (e-mail verified).\nPassword: ${result.password}\nIt is shown only now: keep it safe, and change it on the account page.`);
      return;
    }
    case 'deactivate': {
      const { email: who, sessionsEnded } = await setActive(accounts(), email, false);
      io.out(`${who} is deactivated: it cannot sign in; ${sessionsEnded} session(s) ended.`);
      return;
    }
    case 'activate': {
      const { email: who } = await setActive(accounts(), email, true);
      io.out(`${who} is active again: it can sign in.`);
      return;
    }
    case 'list': {
      const listed = await listAccounts(accounts());
      if (!listed.length) {
        io.out('No accounts yet.');
        return;
      }
      const rows = listed.map((a) => [
        a.email, a.role, a.isActive ? 'active' : 'deactivated', a.isVerified ? 'verified' : 'unverified',
        a.uses2fa ? '2fa' : '-', a.createdAt.toISOString().slice(0, 10),
      ]);
      io.out(table(['E-MAIL', 'ROLE', 'STATUS', 'E-MAIL CHECK', '2FA', 'CREATED'], rows));
      return;
    }
    case 'host-key': {
      const issued = await issueKeyForHost(hosts(), email);
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
      const listed = await listHosts(hosts());
      if (!listed.length) {
        io.out('No hosts yet: add one in the console (Inventory → Hosts).');
        return;
      }
      const rows = listed.map((h) => [
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
