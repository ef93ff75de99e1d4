import { sql } from 'kysely';
import type { Tx } from '../../db/database.js';

/** Records that a new customer accepted the current version of every document in their language. */
export async function acceptCurrentVersions(tx: Tx, userId: string, language: string): Promise<void> {
  await sql`
    insert into legal_acceptances (user_id, kind, language, version)
    select ${userId}, kind, language, max(version) from legal_documents where language = ${language} group by kind, language
  `.execute(tx);
}
