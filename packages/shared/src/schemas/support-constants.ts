// Support tickets' states, limits and screenshot types (issue 17, item 4): plain values, no zod. support.ts builds its
// schemas from them and re-exports them; the Support page imports them from here and loads neither the schemas nor
// zod on opening (issue 31, item 4).

/** open: waiting on an operator; waiting: waiting on the customer; closed. */
export const TICKET_STATES = ['open', 'waiting', 'closed'] as const;
export type TicketState = (typeof TICKET_STATES)[number];
export const SUPPORT_LIMITS = {
  subjectMax: 200,
  bodyMax: 5000,
  attachmentBytesMax: 5 * 1024 * 1024,
  attachmentsPerMessage: 4,
  /** What one customer may upload in 24 hours (uploads wait in the database until sent or swept). */
  uploadBytesPerDay: 50 * 1024 * 1024,
  attachmentNameMax: 200,
  cannedTitleMax: 100,
} as const;
/** The server checks the bytes' magic number, not only the declared type. */
export const SUPPORT_ATTACHMENT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type SupportAttachmentType = (typeof SUPPORT_ATTACHMENT_TYPES)[number];
/** An upload no message references is deleted after this long. */
export const SUPPORT_UNREFERENCED_UPLOAD_HOURS = 24;
export const MESSAGE_AUTHORS = ['customer', 'operator'] as const;
