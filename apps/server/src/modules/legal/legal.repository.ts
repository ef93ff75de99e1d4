import { sql } from 'kysely';
import type { Language } from '@cellport/shared/constants';
import type { LegalDocumentKind } from '@cellport/shared/schemas/legal';
import type { Database, Tx } from '../../db/database.js';

export interface LegalVersionRow { version: number; body: string; created_at: Date; created_by: string | null; email: string | null }

/** The versions of the legal documents and the customers' acceptances. */
export class LegalRepository {
  constructor(private readonly db: Database) {}

  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async latest(kind: LegalDocumentKind, language: Language): Promise<{ version: number; body: string; created_at: Date } | undefined> {
    return this.db.selectFrom('legal_documents').select(['version', 'body', 'created_at'])
      .where('kind', '=', kind).where('language', '=', language)
      .orderBy('version', 'desc').limit(1).executeTakeFirst();
  }

  /** Every version of a document in a language, newest first, with its author's e-mail. */
  async versions(kind: LegalDocumentKind, language: Language): Promise<LegalVersionRow[]> {
    return this.db.selectFrom('legal_documents as d').leftJoin('users as u', 'u.id', 'd.created_by')
      .select(['d.version', 'd.body', 'd.created_at', 'd.created_by', 'u.email'])
      .where('d.kind', '=', kind).where('d.language', '=', language)
      .orderBy('d.version', 'desc').execute();
  }

  /**
   * Inserts the next version of a document in a language and answers the one it follows. Two saves at once wait for
   * each other (an advisory lock per document and language, held to the end of `tx`), so each gets its own number.
   */
  async insertNextVersion(tx: Tx, v: { kind: LegalDocumentKind; language: Language; body: string; createdBy: string }): Promise<{ last: number | null; next: number }> {
    await sql`select pg_advisory_xact_lock(hashtext(${`legal:${v.kind}:${v.language}`}))`.execute(tx);
    const last = await tx.selectFrom('legal_documents').select('version')
      .where('kind', '=', v.kind).where('language', '=', v.language)
      .orderBy('version', 'desc').limit(1).executeTakeFirst();
    const next = (last?.version ?? 0) + 1;
    await tx.insertInto('legal_documents').values({ kind: v.kind, language: v.language, version: next, body: v.body, created_by: v.createdBy }).execute();
    return { last: last?.version ?? null, next };
  }

  async acceptancesOf(userId: string): Promise<Array<{ kind: LegalDocumentKind; language: string; version: number; accepted_at: Date }>> {
    return this.db.selectFrom('legal_acceptances').select(['kind', 'language', 'version', 'accepted_at'])
      .where('user_id', '=', userId).orderBy('kind').execute();
  }
}

/** Records that a new customer accepted the current version of every document in their language (sign-up's transaction). */
export async function acceptCurrentVersions(tx: Tx, userId: string, language: string): Promise<void> {
  await sql`
    insert into legal_acceptances (user_id, kind, language, version)
    select ${userId}, kind, language, max(version) from legal_documents where language = ${language} group by kind, language
  `.execute(tx);
}
