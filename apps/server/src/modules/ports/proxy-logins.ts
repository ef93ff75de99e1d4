import { CATALOG_MESSAGES } from '@cellport/shared/schemas/catalog';
import type { Database, Tx } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { newProxyLoginPrefix } from './port-credentials.js';

/**
 * The account's prefix of the proxy logins its customer chooses, made on first use (decision 035). Two accounts
 * drawing the same prefix at once: one insert wins the unique index, the other draws again.
 */
export async function proxyLoginPrefix(db: Database | Tx, userId: string): Promise<string> {
  for (;;) {
    const kept = await db.selectFrom('proxy_login_prefixes').select('prefix').where('user_id', '=', userId).executeTakeFirst();
    if (kept) return kept.prefix;
    await db.insertInto('proxy_login_prefixes').values({ user_id: userId, prefix: newProxyLoginPrefix() })
      .onConflict((oc) => oc.doNothing()).execute();
  }
}

/**
 * The login to store for a login the customer chose: their prefix and the name. The name may come with their own
 * prefix already in front (as the port list shows it, sent back by a form or a script); anyone else's is refused
 * like any malformed login, so the answer says nothing about other accounts.
 */
export async function chosenProxyLogin(db: Database | Tx, userId: string, chosen: string): Promise<string> {
  const prefix = await proxyLoginPrefix(db, userId);
  const dot = chosen.indexOf('.');
  if (dot >= 0 && chosen.slice(0, dot) !== prefix) throw new AppError('VALIDATION', 400, CATALOG_MESSAGES.proxyLogin);
  return `${prefix}.${chosen.slice(dot + 1)}`;
}
