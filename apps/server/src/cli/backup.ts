// Backups of the embedded database (issue 17, item 3; docs/decisions/032-backups.md). A backup file is PGlite's own
// dump of its data directory, a tar.gz: the same format PGlite loads with `loadDataDir`, so nothing of ours is needed
// to read it back. PostgreSQL is backed up with pg_dump and pg_restore (README, Backups).
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import { openDatabase, type DatabaseHandle } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { AdminCommandError } from './admin-commands.js';
import { checkpointed, countContents, type BackupContents } from './backup.repository.js';

/**
 * A consistent copy of an open embedded database: it takes the database's only connection, so no transaction is
 * half done, writes every change to the data files (CHECKPOINT), and dumps the data directory before letting go.
 */
export async function dumpEmbedded(handle: DatabaseHandle): Promise<Buffer> {
  const pglite = (handle as unknown as { pglite?: PGlite }).pglite;
  if (handle.kind !== 'pglite' || !pglite) throw new AdminCommandError('Only the embedded database is backed up this way; PostgreSQL is backed up with pg_dump.');
  return checkpointed(handle.db, async () => {
    const dump = await pglite.dumpDataDir('gzip');
    return Buffer.from(await dump.arrayBuffer());
  });
}

/** Writes the backup next to its final name and renames it, so FILE is either the whole backup or untouched. */
export async function writeBackupFile(file: string, data: Buffer): Promise<void> {
  const partial = join(dirname(file), `.${Date.now()}-${process.pid}.partial`);
  try {
    await writeFile(partial, data, { mode: 0o600 });
    await rename(partial, file);
  } catch (err) {
    rmSync(partial, { force: true });
    throw new AdminCommandError(`Could not write ${file}: ${(err as Error).message}`);
  }
}

/** The embedded database of a DATA_DIR no server is using: opened, dumped, closed (never migrated: backed up as it is). */
export async function backupStopped(dataDir: string): Promise<Buffer> {
  if (!hasDatabase(dataDir)) throw new AdminCommandError(`There is no embedded database in ${dataDir} to back up.`);
  const handle = await openDatabase({ dataDir });
  try {
    return await dumpEmbedded(handle);
  } finally {
    await handle.close();
  }
}

/**
 * Restores a backup into DATA_DIR (no server may be using it: the caller checks). The backup is loaded and migrated
 * in a folder of its own first, so a file that is not a backup changes nothing; an existing database is replaced only
 * with `force`, and then moved aside (DATA_DIR/pglite.before-restore-<time>), never deleted.
 */
export async function restoreEmbedded(dataDir: string, file: string, { force = false } = {}): Promise<{ contents: BackupContents; movedAside: string | null }> {
  const target = join(dataDir, 'pglite');
  if (hasDatabase(dataDir) && !force) {
    throw new AdminCommandError(`${dataDir} already holds a database. Restoring would replace it: to do so, run restore again with --force (the current database is kept as ${target}.before-restore-<time>).`);
  }
  let data: Buffer;
  try {
    data = await readFile(file);
  } catch (err) {
    throw new AdminCommandError(`Could not read ${file}: ${(err as Error).message}`);
  }
  const tar = dataDirTar(data, file);
  const staging = join(dataDir, `.restore-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  let contents: BackupContents;
  try {
    const handle = await openDatabase({ dataDir: staging, loadDataDir: new Blob([tar], { type: 'application/x-tar' }) });
    try {
      await migrateToLatest(handle.db);
      contents = await countContents(handle.db);
    } finally {
      await handle.close();
    }
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
  let movedAside: string | null = null;
  if (existsSync(target)) {
    movedAside = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(target, movedAside);
  }
  renameSync(join(staging, 'pglite'), target);
  rmSync(staging, { recursive: true, force: true });
  return { contents, movedAside };
}

/**
 * The backup as an uncompressed tar, checked before anything is written: gzip or plain tar, whose entries are a
 * PostgreSQL data directory (PG_VERSION at its top). PGlite reports a bad file late and partly outside the promise
 * it returns, so a file that is not a backup is refused here.
 */
export function dataDirTar(data: Buffer, file = 'the file'): Buffer {
  let tar = data;
  if (data[0] === 0x1f && data[1] === 0x8b) {
    try {
      tar = gunzipSync(data);
    } catch (err) {
      throw new AdminCommandError(`${file} is not a backup of the embedded database: its gzip data is damaged (${(err as Error).message}).`);
    }
  }
  const names = tarNames(tar);
  // PGlite names entries from the data directory's root ("/PG_VERSION"); a folder above it is allowed too.
  const atTop = (name: string) => {
    const parts = name.split('/').filter((p) => p && p !== '.');
    return parts.at(-1) === 'PG_VERSION' && parts.length <= 2;
  };
  if (!names.some(atTop)) {
    throw new AdminCommandError(`${file} is not a backup of the embedded database (no PostgreSQL data directory in it).`);
  }
  return tar;
}

/** The entry names of a ustar archive (empty for what is not one). */
function tarNames(tar: Buffer): string[] {
  const names: string[] = [];
  for (let offset = 0; offset + 512 <= tar.length;) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const field = (from: number, length: number) => header.subarray(from, from + length).toString('latin1').replace(/\0.*$/s, '');
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const sum = parseInt(field(148, 8).trim() || 'x', 8);
    let computed = 0;
    for (let i = 0; i < 512; i++) computed += i >= 148 && i < 156 ? 32 : header[i]!;
    if (Number.isNaN(size) || sum !== computed) return [];
    const prefix = field(345, 155);
    names.push(prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}

/** True when DATA_DIR holds an embedded database (a non-empty DATA_DIR/pglite). */
export function hasDatabase(dataDir: string): boolean {
  const dir = join(dataDir, 'pglite');
  return existsSync(dir) && readdirSync(dir).length > 0;
}
