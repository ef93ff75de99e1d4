import { CATALOG_MESSAGES } from '@cellport/shared/schemas/catalog';
import { AppError } from '../../lib/app-error.js';
import { newProxyLoginPrefix } from './port-credentials.js';
import type { PortsRepository } from './ports.repository.js';

/**
 * The account's prefix of the proxy logins its customer chooses, made on first use (decision 035). Two accounts
 * drawing the same prefix at once: one insert wins the unique index, the other draws again.
 */
export async function proxyLoginPrefix(repo: PortsRepository, userId: string): Promise<string> {
  for (;;) {
    const kept = await repo.loginPrefix(userId);
    if (kept) return kept;
    await repo.addLoginPrefix(userId, newProxyLoginPrefix());
  }
}

/**
 * The login to store for a login the customer chose: their prefix and the name. The name may come with their own
 * prefix already in front (as the port list shows it, sent back by a form or a script); anyone else's is refused
 * like any malformed login, so the answer says nothing about other accounts.
 */
export async function chosenProxyLogin(repo: PortsRepository, userId: string, chosen: string): Promise<string> {
  const prefix = await proxyLoginPrefix(repo, userId);
  const dot = chosen.indexOf('.');
  if (dot >= 0 && chosen.slice(0, dot) !== prefix) throw new AppError('VALIDATION', 400, CATALOG_MESSAGES.proxyLogin);
  return `${prefix}.${chosen.slice(dot + 1)}`;
}
