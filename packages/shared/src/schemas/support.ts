import * as z from 'zod/mini';
import { text } from './text.js';
import { MESSAGE_AUTHORS, SUPPORT_LIMITS, TICKET_STATES } from './support-constants.js';

// Support tickets (issue 17 item 4). A customer opens a ticket, optionally about one of their ports, attaches
// screenshots (uploaded first, then referenced by id) and sees replies live ('support_ticket' realtime event);
// operators answer from the console inbox (/api/v1/admin/support/*) with states, assignment and canned replies.

export * from './support-constants.js';

export const supportAttachmentSchema = z.object({
  _id: text(),
  name: text(),
  type: text(),
  size: z.number(),
});
export type SupportAttachment = z.infer<typeof supportAttachmentSchema>;

export const supportMessageSchema = z.object({
  _id: text(),
  author: z.enum(MESSAGE_AUTHORS),
  /** The operator's name (customers see who answered), the customer's e-mail, or null. */
  authorName: z.nullable(text()),
  body: text(),
  attachments: z.array(supportAttachmentSchema),
  /** ISO-8601. */
  createdAt: text(),
});
export type SupportMessage = z.infer<typeof supportMessageSchema>;

export const ticketSummarySchema = z.object({
  _id: text(),
  /** Shown as "#1042". */
  number: z.number(),
  subject: text(),
  state: z.enum(TICKET_STATES),
  port: z.nullable(z.object({ _id: text(), name: text() })),
  /** Customer API: an operator message the customer has not opened; console: a customer message no operator has. */
  unread: z.boolean(),
  lastMessageAt: text(),
  createdAt: text(),
});
export type TicketSummary = z.infer<typeof ticketSummarySchema>;
export const ticketDetailSchema = z.extend(ticketSummarySchema, { messages: z.array(supportMessageSchema) });
export type TicketDetail = z.infer<typeof ticketDetailSchema>;

// ---- requests ----------------------------------------------------------------------------------------------------

const subject = text().check(
  z.trim(),
  z.minLength(1, 'Enter a subject'),
  z.maxLength(SUPPORT_LIMITS.subjectMax, 'The subject must be at most 200 characters long'),
);
const body = text().check(
  z.trim(),
  z.minLength(1, 'Write a message'),
  z.maxLength(SUPPORT_LIMITS.bodyMax, 'The message must be at most 5000 characters long'),
);
/** Ids of uploads (POST …/support/attachments); more than 4 is SUPPORT_TOO_MANY_ATTACHMENTS, checked by the server. */
const attachmentIds = z.optional(z.array(z.uuid()).check(z.maxLength(50)));

export const createTicketRequestSchema = z.object({
  subject,
  body,
  portId: z.optional(z.nullable(z.uuid())),
  attachments: attachmentIds,
});
export type CreateTicketRequest = z.infer<typeof createTicketRequestSchema>;
export const ticketMessageRequestSchema = z.object({ body, attachments: attachmentIds });
export type TicketMessageRequest = z.infer<typeof ticketMessageRequestSchema>;
export const ticketParamsSchema = z.object({ id: z.uuid() });
export const attachmentUploadQuerySchema = z.object({
  name: z.optional(text().check(z.trim(), z.maxLength(SUPPORT_LIMITS.attachmentNameMax))),
});

export const ticketsResponseSchema = z.object({ tickets: z.array(ticketSummarySchema) });
export const ticketResponseSchema = z.object({ ticket: ticketDetailSchema });
export const attachmentResponseSchema = z.object({ attachment: supportAttachmentSchema });

/** Realtime 'support_ticket' (the customer's room): an operator replied or changed the state. */
export const supportTicketEventSchema = z.object({
  ticket: ticketSummarySchema,
  message: z.optional(supportMessageSchema),
});
export type SupportTicketEvent = z.infer<typeof supportTicketEventSchema>;

// ---- console (/api/v1/admin/support) -----------------------------------------------------------------------------

const person = z.object({ _id: text(), name: text() });
const consoleExtras = {
  customer: z.object({ _id: text(), email: text() }),
  assignee: z.nullable(person),
};
export const adminTicketSummarySchema = z.extend(ticketSummarySchema, consoleExtras);
export type AdminTicketSummary = z.infer<typeof adminTicketSummarySchema>;
export const adminTicketDetailSchema = z.extend(ticketDetailSchema, consoleExtras);
export type AdminTicketDetail = z.infer<typeof adminTicketDetailSchema>;

/** assignee: 'me', 'none' or an operator's id; q matches the subject, the number ("1042" or "#1042") and the customer's e-mail. */
export const adminTicketsQuerySchema = z.object({
  state: z.optional(z.enum(TICKET_STATES)),
  assignee: z.optional(z.union([z.literal('me'), z.literal('none'), z.uuid()])),
  q: z.optional(text().check(z.trim(), z.maxLength(200))),
  page: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(1_000_000))),
  pageSize: z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(200))),
});
export type AdminTicketsQuery = z.infer<typeof adminTicketsQuerySchema>;
/** {items, total} plus the console's usual page fields. */
export const adminTicketsResponseSchema = z.object({
  items: z.array(adminTicketSummarySchema),
  total: z.number(),
  totalCapped: z.boolean(),
  page: z.number(),
  pageSize: z.number(),
});
export type AdminTicketsResponse = z.infer<typeof adminTicketsResponseSchema>;
export const adminTicketResponseSchema = z.object({ ticket: adminTicketDetailSchema });
export const supportSummarySchema = z.object({
  open: z.number(),
  waiting: z.number(),
  /** Open or waiting tickets nobody is assigned to. */
  unassigned: z.number(),
  /** Open tickets assigned to the calling operator. */
  mine: z.number(),
});
export type SupportSummary = z.infer<typeof supportSummarySchema>;
export const adminTicketMessageRequestSchema = z.object({
  body,
  attachments: attachmentIds,
  /** The state after the reply; default 'waiting'. */
  state: z.optional(z.enum(TICKET_STATES)),
});
export const adminTicketUpdateRequestSchema = z.object({
  state: z.optional(z.enum(TICKET_STATES)),
  assigneeId: z.optional(z.nullable(z.uuid())),
});
export const supportOperatorsResponseSchema = z.object({ items: z.array(person) });

export const cannedReplySchema = z.object({ _id: text(), title: text(), body: text() });
export type CannedReply = z.infer<typeof cannedReplySchema>;
export const cannedRepliesResponseSchema = z.object({ items: z.array(cannedReplySchema) });
const cannedTitle = text().check(
  z.trim(),
  z.minLength(1, 'Enter a title'),
  z.maxLength(SUPPORT_LIMITS.cannedTitleMax, 'The title must be at most 100 characters long'),
);
export const cannedReplyRequestSchema = z.object({ title: cannedTitle, body });
export const cannedReplyUpdateRequestSchema = z.object({ title: z.optional(cannedTitle), body: z.optional(body) });
export const cannedReplyResponseSchema = z.object({ item: cannedReplySchema });
