import type { ColumnType, Generated } from 'kysely';
import type { LegalDocumentKind } from '@cellport/shared/schemas/legal';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/** Terms of Service and Refund Policy: every save a new version per document and language (issue 14, item 8). */
export interface LegalDocumentsTable {
  id: Generated<string>;
  kind: LegalDocumentKind;
  language: string;
  version: number;
  body: string;
  /** The operator who saved it; null for the defaults of a fresh install. */
  created_by: string | null;
  created_at: CreatedAt;
}

/** The version of each document a customer accepted at sign-up. */
export interface LegalAcceptancesTable {
  user_id: string;
  kind: LegalDocumentKind;
  language: string;
  version: number;
  accepted_at: CreatedAt;
}

export interface LegalTables {
  legal_documents: LegalDocumentsTable;
  legal_acceptances: LegalAcceptancesTable;
}
