import type { Language } from '@cellport/shared/constants';
import type { AdminLegalVersion } from '@cellport/shared/schemas/admin/legal';
import type { LegalAcceptance, LegalDocument, LegalDocumentKind } from '@cellport/shared/schemas/legal';
import { AppError } from '../../lib/app-error.js';
import type { AuditActor, AuditLog } from '../audit/index.js';
import type { LegalRepository } from './legal.repository.js';

/**
 * The Terms of Service and the Refund Policy (issue 14, item 8). Every save is a new version per document and
 * language; readers get the latest. Sign-up records the versions current in the customer's language
 * (`acceptCurrentVersions` in legal.repository.ts, in the transaction that creates the account).
 */
export class LegalService {
  constructor(private readonly repo: LegalRepository, private readonly audit: AuditLog) {}

  /** The latest version of a document in a language (a fresh install has version 1 of each). */
  async latest(kind: LegalDocumentKind, language: Language): Promise<LegalDocument> {
    const row = await this.repo.latest(kind, language);
    if (!row) throw new AppError('NOT_FOUND');
    return { kind, language, version: row.version, body: row.body, publishedAt: row.created_at.toISOString() };
  }

  /** Every version of a document in a language, newest first, with its author. */
  async versions(kind: LegalDocumentKind, language: Language): Promise<AdminLegalVersion[]> {
    const rows = await this.repo.versions(kind, language);
    return rows.map((r) => ({
      version: r.version, body: r.body, createdAt: r.created_at.toISOString(), authorId: r.created_by, authorEmail: r.email ?? null,
    }));
  }

  /**
   * Publishes a new version: the next number of that document and language, audited in the same transaction.
   * Two operators saving at once wait for each other, so each save gets its own number.
   */
  async publish(actor: AuditActor, kind: LegalDocumentKind, language: Language, body: string): Promise<AdminLegalVersion> {
    const version = await this.repo.transaction(async (tx) => {
      const { last, next } = await this.repo.insertNextVersion(tx, { kind, language, body, createdBy: actor.adminId });
      await this.audit.record(tx, actor, {
        action: 'legal.publish', targetType: 'legal_document', targetId: `${kind}/${language}`,
        before: last !== null ? { version: last } : null, after: { version: next, body },
      });
      return next;
    });
    const saved = (await this.versions(kind, language)).find((v) => v.version === version);
    if (!saved) throw new AppError('NOT_FOUND');
    return saved;
  }

  /** What a customer accepted at sign-up, one row per document. */
  async acceptancesOf(userId: string): Promise<LegalAcceptance[]> {
    const rows = await this.repo.acceptancesOf(userId);
    return rows.map((r) => ({ kind: r.kind, language: r.language as Language, version: r.version, acceptedAt: r.accepted_at.toISOString() }));
  }
}
