import { createHmac } from 'node:crypto';
import type { Database } from '../../db/database.js';
import { hashToken, newToken } from '../../lib/tokens.js';

export const HOST_KEY_PREFIX = 'chk_';

/** Issues a new ingest key for a host (shown once; only its hash is stored), replacing any previous one. */
export async function issueHostKey(db: Database, hostId: string): Promise<string> {
  const key = `${HOST_KEY_PREFIX}${newToken(24)}`;
  await db.updateTable('hosts').set({ ingest_key_hash: hashToken(key) }).where('id', '=', hostId).execute();
  return key;
}

/** The demo hosts' keys are derived from the server secret, so the seed can print them again on every start. */
export const demoHostKey = (hostName: string, secret: string) =>
  `${HOST_KEY_PREFIX}${createHmac('sha256', secret).update(`demo-host-key:${hostName}`).digest('base64url').slice(0, 32)}`;

/** The seeded demo hosts (named `*.proxy.cellport.local`) by name, with their key's hash (null: none issued). */
export function demoHosts(db: Database): Promise<Array<{ name: string; ingest_key_hash: string | null }>> {
  return db.selectFrom('hosts').select(['name', 'ingest_key_hash'])
    .where('name', 'like', '%.proxy.cellport.local').orderBy('name').execute();
}

/** The host an ingest key belongs to, or null. */
export async function hostForKey(db: Database, key: string): Promise<string | null> {
  if (!key.startsWith(HOST_KEY_PREFIX) || key.length > 100) return null;
  const row = await db.selectFrom('hosts').select('id').where('ingest_key_hash', '=', hashToken(key)).executeTakeFirst();
  return row?.id ?? null;
}
