import { createHash } from 'node:crypto';
import type { PurchaseResponse } from '@cellport/shared/schemas/catalog';
import type { Tx } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { PurchasesRepository } from './purchases.repository.js';

export type Idempotent = { replay: PurchaseResponse } | { replay: null };

/**
 * Inserting the key first makes a concurrent duplicate wait on the unique index until this transaction ends;
 * it then finds the stored answer. Only successful answers are stored: a failed attempt rolls the key back too.
 */
export async function claimIdempotencyKey(
  repo: PurchasesRepository, tx: Tx, userId: string, op: string, req: unknown, key: string | undefined,
): Promise<Idempotent> {
  if (!key) return { replay: null };
  const hash = createHash('sha256').update(`${op}:${JSON.stringify(req)}`).digest('hex');
  if (await repo.claimIdempotencyKey(tx, userId, key, hash)) return { replay: null };
  const stored = await repo.idempotencyKey(tx, userId, key);
  if (!stored || stored.request_hash !== hash || !stored.response) throw new AppError('IDEMPOTENCY_KEY_REUSED');
  return { replay: stored.response as PurchaseResponse };
}

export async function storeIdempotentResponse(
  repo: PurchasesRepository, tx: Tx, userId: string, key: string | undefined, response: PurchaseResponse,
): Promise<void> {
  if (!key) return;
  await repo.storeIdempotentResponse(tx, userId, key, JSON.stringify(response));
}
