import { sql } from 'kysely';
import type { Database, Tx } from '../../db/database.js';

/**
 * The account's derivation index for its deposit addresses, allocated once from a sequence (so two accounts never
 * share an address, and an address never changes). Concurrent first calls agree: the primary key keeps one row.
 */
export async function addressIndex(q: Database | Tx, userId: string): Promise<number> {
  const found = await q.selectFrom('payment_accounts').select('address_index').where('user_id', '=', userId).executeTakeFirst();
  if (found) return found.address_index;
  await q.insertInto('payment_accounts')
    .values({ user_id: userId, address_index: sql<number>`nextval('payment_address_index_seq')` })
    .onConflict((oc) => oc.column('user_id').doNothing()).execute();
  const row = await q.selectFrom('payment_accounts').select('address_index').where('user_id', '=', userId).executeTakeFirstOrThrow();
  return row.address_index;
}
