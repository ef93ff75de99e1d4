import type { ColumnType, Generated } from 'kysely';
import type { SupportAttachmentType, TicketState } from '@cellport/shared/schemas/support';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/** Support tickets (issue 17 item 4; migration 2026_12_09_0100_support_tickets). */
export interface SupportTicketsTable {
  id: Generated<string>;
  /** From the sequence support_ticket_numbers: "#1042" for people. */
  number: Generated<number>;
  user_id: string;
  port_id: string | null;
  subject: string;
  state: Generated<TicketState>;
  assignee_id: string | null;
  last_message_at: Generated<Date>;
  last_customer_message_at: Date | null;
  last_operator_message_at: Date | null;
  customer_read_at: Date | null;
  operator_read_at: Date | null;
  created_at: CreatedAt;
}

export interface SupportMessagesTable {
  id: Generated<string>;
  ticket_id: string;
  author: 'customer' | 'operator';
  author_id: string | null;
  body: string;
  created_at: CreatedAt;
}

export interface SupportAttachmentsTable {
  id: Generated<string>;
  uploaded_by: string;
  /** Null until a message references the upload. */
  message_id: string | null;
  name: string;
  type: SupportAttachmentType;
  size: number;
  data: Buffer;
  created_at: CreatedAt;
}

export interface SupportCannedRepliesTable {
  id: Generated<string>;
  title: string;
  body: string;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: Generated<Date>;
}

export interface SupportTables {
  support_tickets: SupportTicketsTable;
  support_messages: SupportMessagesTable;
  support_attachments: SupportAttachmentsTable;
  support_canned_replies: SupportCannedRepliesTable;
}
