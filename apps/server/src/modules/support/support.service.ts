import {
  SUPPORT_LIMITS, SUPPORT_UNREFERENCED_UPLOAD_HOURS,
  type AdminTicketDetail, type AdminTicketsQuery, type AdminTicketsResponse, type AdminTicketSummary, type CannedReply,
  type CreateTicketRequest, type SupportAttachment, type SupportMessage, type SupportSummary, type SupportTicketEvent,
  type TicketDetail, type TicketState, type TicketSummary,
} from '@cellport/shared/schemas/support';
import type { Tx } from '../../db/database.js';
import type { JobQueue } from '../../jobs/queue.js';
import { AppError } from '../../lib/app-error.js';
import type { Bus } from '../../lib/bus.js';
import type { AuditActor, AuditLog } from '../audit/index.js';
import type { NotificationsService } from '../notifications/index.js';
import { cleanFileName, declaredImageType, sniffImage } from './support-attachments.js';
import type { AttachmentRow, MessageRow, SupportRepository, TicketRow } from './support.repository.js';
import { JOBS } from '../../jobs/job-kinds.js';
import { TOPICS } from '../../lib/bus-topics.js';

/** The bus topic of an event for a customer's open dashboards (realtime.server.ts forwards it as 'support_ticket'). */
export const SUPPORT_TICKET_TOPIC = TOPICS.supportTicket;
export const SUPPORT_SWEEP_JOB = JOBS.supportSweepUploads.name;
/** A bus message must fit a PostgreSQL NOTIFY (under 8000 bytes): a larger event goes without its message. */
const EVENT_BYTES_MAX = 7000;

type Viewer = 'customer' | 'operator';

const iso = (d: Date) => d.toISOString();
const later = (a: Date | null, b: Date | null) => a !== null && (b === null || a > b);

const toAttachment = (a: AttachmentRow): SupportAttachment => ({ _id: a.id, name: a.name, type: a.type, size: a.size });

function toSummary(t: TicketRow, viewer: Viewer): TicketSummary {
  return {
    _id: t.id, number: t.number, subject: t.subject, state: t.state,
    port: t.port_id && t.port_name !== null ? { _id: t.port_id, name: t.port_name } : null,
    unread: viewer === 'customer'
      ? later(t.last_operator_message_at, t.customer_read_at)
      : later(t.last_customer_message_at, t.operator_read_at),
    lastMessageAt: iso(t.last_message_at), createdAt: iso(t.created_at),
  };
}
const consoleExtras = (t: TicketRow) => ({
  customer: { _id: t.user_id, email: t.customer_email },
  assignee: t.assignee_id ? { _id: t.assignee_id, name: t.assignee_name ?? '' } : null,
});

function toMessage(m: MessageRow, attachments: AttachmentRow[], viewer: Viewer, customerEmail: string): SupportMessage {
  return {
    _id: m.id, author: m.author,
    authorName: m.author === 'operator' ? m.author_name : viewer === 'operator' ? customerEmail : null,
    body: m.body,
    attachments: attachments.filter((a) => a.message_id === m.id).map(toAttachment),
    createdAt: iso(m.created_at),
  };
}

/** The console's view of a ticket with its messages. */
function toAdminDetail(t: TicketRow, rows: { messages: MessageRow[]; attachments: AttachmentRow[] }): AdminTicketDetail {
  return { ...toSummary(t, 'operator'), ...consoleExtras(t), messages: rows.messages.map((m) => toMessage(m, rows.attachments, 'operator', t.customer_email)) };
}

export interface SupportDeps {
  repo: SupportRepository;
  notifications: NotificationsService;
  audit: AuditLog;
  bus: Bus;
  jobs: JobQueue;
}

/**
 * Support tickets (issue 17 item 4). Customers open tickets (optionally about one of their ports) and reply;
 * operators answer from the console with states, assignment and canned replies. Screenshots are uploaded first and
 * referenced by a message; a job deletes uploads nobody referenced within 24 h. Each side is notified in the
 * transaction of the message (bell, e-mail, Telegram through the notifications' trigger); the customer's open
 * dashboards hear of operators' replies and state changes after the commit ('support_ticket').
 */
export class SupportService {
  constructor(private readonly deps: SupportDeps) {}

  /**
   * The job that deletes unreferenced uploads, armed by a planner only when one is overdue (an indexed look at the
   * oldest unreferenced upload): no job runs, and none shows in the queue, while there is nothing to delete.
   */
  register(): void {
    const cutoff = (now: Date) => new Date(now.getTime() - SUPPORT_UNREFERENCED_UPLOAD_HOURS * 3_600_000);
    this.deps.jobs.handle(JOBS.supportSweepUploads, async (tx, _payload, now) => {
      await this.deps.repo.deleteUnreferenced(tx, cutoff(now));
    });
    this.deps.jobs.plan(async (now) => {
      if (!await this.deps.repo.hasUnreferencedBefore(cutoff(now))) return;
      await this.deps.repo.transaction((tx) => this.deps.jobs.schedule(tx, { kind: JOBS.supportSweepUploads, key: SUPPORT_SWEEP_JOB, runAt: now, payload: {} }, { rearmDone: true }));
    });
  }

  // ---- customers

  async list(userId: string): Promise<TicketSummary[]> {
    return (await this.deps.repo.customerTickets(userId)).map((t) => toSummary(t, 'customer'));
  }

  async open(userId: string, req: CreateTicketRequest): Promise<TicketDetail> {
    const attachments = this.attachmentIds(req.attachments);
    const id = await this.deps.repo.transaction(async (tx) => {
      const portId = req.portId ?? null;
      if (portId && !await this.deps.repo.customerPort(tx, userId, portId)) throw new AppError('SUPPORT_PORT_NOT_FOUND');
      const at = new Date();
      const ticketId = await this.deps.repo.insertTicket(tx, { userId, portId, subject: req.subject, at });
      await this.addMessage(tx, ticketId, 'customer', userId, req.body, attachments, at);
      const ticket = (await this.deps.repo.ticket(tx, ticketId, userId))!;
      await this.alertOperators(tx, ticket, 'support_ticket_new');
      return ticketId;
    });
    return this.customerDetail(userId, id);
  }

  /** The ticket with its messages; marks it read for the customer. */
  async get(userId: string, id: string): Promise<TicketDetail> {
    if (!await this.deps.repo.markRead(id, userId)) throw new AppError('SUPPORT_TICKET_NOT_FOUND');
    return this.customerDetail(userId, id);
  }

  /** A customer's reply: the ticket is open again (waiting on an operator), also when it was closed. */
  async reply(userId: string, id: string, body: string, attachmentIds: string[] | undefined): Promise<TicketDetail> {
    const attachments = this.attachmentIds(attachmentIds);
    await this.deps.repo.transaction(async (tx) => {
      const ticket = await this.deps.repo.ticket(tx, id, userId, true);
      if (!ticket) throw new AppError('SUPPORT_TICKET_NOT_FOUND');
      const at = new Date();
      await this.addMessage(tx, id, 'customer', userId, body, attachments, at);
      await this.deps.repo.updateTicket(tx, id, { state: 'open', last_message_at: at, last_customer_message_at: at, customer_read_at: at });
      await this.alertOperators(tx, ticket, 'support_customer_reply');
    });
    return this.customerDetail(userId, id);
  }

  async close(userId: string, id: string): Promise<TicketDetail> {
    await this.deps.repo.transaction(async (tx) => {
      const ticket = await this.deps.repo.ticket(tx, id, userId, true);
      if (!ticket) throw new AppError('SUPPORT_TICKET_NOT_FOUND');
      await this.deps.repo.updateTicket(tx, id, { state: 'closed' });
    });
    return this.customerDetail(userId, id);
  }

  private async customerDetail(userId: string, id: string): Promise<TicketDetail> {
    const ticket = await this.deps.repo.ticket(undefined, id, userId);
    if (!ticket) throw new AppError('SUPPORT_TICKET_NOT_FOUND');
    return { ...toSummary(ticket, 'customer'), messages: await this.messages(undefined, ticket, 'customer') };
  }

  // ---- attachments

  /**
   * A screenshot, checked by its size, its declared type and that its bytes are that image. A customer's uploads are also held to a daily budget: uploads wait in the
   * database until a message takes them (or the sweep), so the rate limit alone would let one account fill the disk.
   */
  async upload(userId: string, contentType: string | undefined, body: unknown, name: string | undefined, operator = false): Promise<SupportAttachment> {
    if (Buffer.isBuffer(body) && body.length > SUPPORT_LIMITS.attachmentBytesMax) throw new AppError('SUPPORT_ATTACHMENT_TOO_LARGE');
    const declared = declaredImageType(contentType);
    if (!declared || !Buffer.isBuffer(body) || body.length === 0 || sniffImage(body) !== declared) {
      throw new AppError('SUPPORT_ATTACHMENT_TYPE');
    }
    if (!operator) {
      const used = await this.deps.repo.uploadedBytesSince(userId, new Date(Date.now() - 86_400_000));
      if (used + body.length > SUPPORT_LIMITS.uploadBytesPerDay) throw new AppError('SUPPORT_UPLOAD_QUOTA');
    }
    const row = await this.deps.repo.insertAttachment({ uploadedBy: userId, name: cleanFileName(name, declared), type: declared, data: body });
    return toAttachment(row);
  }

  /** An attachment's bytes for its ticket's customer (or its uploader) and for operators; 404 for anyone else. */
  async download(userId: string, operator: boolean, id: string) {
    const file = await this.deps.repo.attachmentFor(id, userId, operator);
    if (!file) throw new AppError('SUPPORT_ATTACHMENT_NOT_FOUND');
    return file;
  }

  /** The console's upload: the same checks, and audited. */
  async operatorUpload(actor: AuditActor, contentType: string | undefined, body: unknown, name: string | undefined): Promise<SupportAttachment> {
    const attachment = await this.upload(actor.adminId, contentType, body, name, true);
    await this.deps.repo.transaction((tx) => this.deps.audit.record(tx, actor, {
      action: 'support-attachment.create', targetType: 'support-attachment', targetId: attachment._id, before: null, after: attachment,
    }));
    return attachment;
  }

  // ---- operators

  async inbox(operatorId: string, query: AdminTicketsQuery): Promise<AdminTicketsResponse> {
    const { rows, ...page } = await this.deps.repo.inbox(operatorId, query);
    return { items: rows.map((t): AdminTicketSummary => ({ ...toSummary(t, 'operator'), ...consoleExtras(t) })), ...page };
  }

  summary(operatorId: string): Promise<SupportSummary> {
    return this.deps.repo.summary(operatorId);
  }

  async operators(): Promise<Array<{ _id: string; name: string }>> {
    return (await this.deps.repo.activeOperators()).map((o) => ({ _id: o.id, name: o.name || o.email }));
  }

  /** The ticket for the console; marks it read for the operators. */
  async adminGet(id: string): Promise<AdminTicketDetail> {
    if (!await this.deps.repo.markRead(id, null)) throw new AppError('SUPPORT_TICKET_NOT_FOUND');
    return this.adminDetail(undefined, id);
  }

  /** An operator's reply (audited); the ticket then waits on the customer unless `state` says otherwise. */
  async adminReply(actor: AuditActor, id: string, req: { body: string; attachments?: string[] | undefined; state?: TicketState | undefined }): Promise<AdminTicketDetail> {
    const attachments = this.attachmentIds(req.attachments);
    const { detail, event } = await this.deps.repo.transaction(async (tx) => {
      const ticket = await this.deps.repo.ticket(tx, id, null, true);
      if (!ticket) throw new AppError('SUPPORT_TICKET_NOT_FOUND');
      const at = new Date();
      const state = req.state ?? 'waiting';
      const messageId = await this.addMessage(tx, id, 'operator', actor.adminId, req.body, attachments, at);
      await this.deps.repo.updateTicket(tx, id, { state, last_message_at: at, last_operator_message_at: at, operator_read_at: at });
      await this.deps.audit.record(tx, actor, {
        action: 'support-ticket.reply', targetType: 'support-ticket', targetId: id,
        before: { state: ticket.state }, after: { state, messageId, attachments },
      });
      await this.deps.notifications.notify(ticket.user_id, 'other', 'support_reply', this.textParams(ticket), tx);
      // The ticket and its messages read once: the console's answer, and the new message as the customer sees it.
      const after = (await this.deps.repo.ticket(tx, id, null))!;
      const rows = await this.deps.repo.messages(tx, id);
      const sent = rows.messages.find((m) => m.id === messageId);
      const message = sent && toMessage(sent, rows.attachments, 'customer', after.customer_email);
      return { detail: toAdminDetail(after, rows), event: { userId: ticket.user_id, ticket: after, message } };
    });
    await this.publish(event.userId, event.ticket, event.message);
    return detail;
  }

  /**
   * State and assignment (audited); the customer's dashboards hear of a new state, and an operator another
   * operator assigned the ticket to is notified like of a new ticket (bell, e-mail, Telegram when linked).
   */
  async adminUpdate(actor: AuditActor, id: string, req: { state?: TicketState | undefined; assigneeId?: string | null | undefined }): Promise<AdminTicketDetail> {
    const { detail, changed } = await this.deps.repo.transaction(async (tx) => {
      const ticket = await this.deps.repo.ticket(tx, id, null, true);
      if (!ticket) throw new AppError('SUPPORT_TICKET_NOT_FOUND');
      let handedTo: { id: string; language: string } | undefined;
      let handedBy = '';
      if (req.assigneeId) {
        const operators = await this.deps.repo.activeOperators(tx);
        const assignee = operators.find((o) => o.id === req.assigneeId);
        if (!assignee) throw new AppError('REFERENCE_INVALID');
        // Handed over by someone else: the new assignee hears of it. Taking a ticket yourself, keeping the same
        // assignee or unassigning tells nobody.
        if (assignee.id !== actor.adminId && assignee.id !== ticket.assignee_id) {
          handedTo = assignee;
          const by = operators.find((o) => o.id === actor.adminId);
          handedBy = by ? by.name || by.email : '';
        }
      }
      const set = {
        ...(req.state !== undefined ? { state: req.state } : {}),
        ...(req.assigneeId !== undefined ? { assignee_id: req.assigneeId } : {}),
      };
      await this.deps.repo.updateTicket(tx, id, set);
      await this.deps.audit.record(tx, actor, {
        action: 'support-ticket.update', targetType: 'support-ticket', targetId: id,
        before: { state: ticket.state, assigneeId: ticket.assignee_id },
        after: { state: req.state ?? ticket.state, assigneeId: req.assigneeId !== undefined ? req.assigneeId : ticket.assignee_id },
      });
      if (handedTo) {
        await this.deps.notifications.notify(handedTo.id, 'other', 'support_assigned', { ...this.textParams(ticket), operator: handedBy }, tx,
          { language: handedTo.language, marketing_consent: false });
      }
      const after = (await this.deps.repo.ticket(tx, id, null))!;
      return { detail: toAdminDetail(after, await this.deps.repo.messages(tx, id)), changed: after.state !== ticket.state ? after : null };
    });
    if (changed) await this.publish(changed.user_id, changed);
    return detail;
  }

  private async adminDetail(q: Tx | undefined, id: string): Promise<AdminTicketDetail> {
    const ticket = await this.deps.repo.ticket(q, id, null);
    if (!ticket) throw new AppError('SUPPORT_TICKET_NOT_FOUND');
    return toAdminDetail(ticket, await this.deps.repo.messages(q, id));
  }

  // ---- canned replies

  async cannedReplies(): Promise<CannedReply[]> {
    return (await this.deps.repo.cannedReplies()).map((r) => ({ _id: r.id, title: r.title, body: r.body }));
  }

  async createCannedReply(actor: AuditActor, req: { title: string; body: string }): Promise<CannedReply> {
    return this.deps.repo.transaction(async (tx) => {
      const row = await this.deps.repo.insertCannedReply(tx, { ...req, createdBy: actor.adminId });
      await this.deps.audit.record(tx, actor, { action: 'support-canned-reply.create', targetType: 'support-canned-reply', targetId: row.id, before: null, after: row });
      return { _id: row.id, title: row.title, body: row.body };
    });
  }

  async updateCannedReply(actor: AuditActor, id: string, req: { title?: string | undefined; body?: string | undefined }): Promise<CannedReply> {
    return this.deps.repo.transaction(async (tx) => {
      const before = await this.deps.repo.cannedReply(tx, id);
      if (!before) throw new AppError('SUPPORT_CANNED_REPLY_NOT_FOUND');
      const row = await this.deps.repo.updateCannedReply(tx, id, {
        ...(req.title !== undefined ? { title: req.title } : {}), ...(req.body !== undefined ? { body: req.body } : {}),
      });
      await this.deps.audit.record(tx, actor, { action: 'support-canned-reply.update', targetType: 'support-canned-reply', targetId: id, before, after: row });
      return { _id: row.id, title: row.title, body: row.body };
    });
  }

  async deleteCannedReply(actor: AuditActor, id: string): Promise<void> {
    await this.deps.repo.transaction(async (tx) => {
      const before = await this.deps.repo.cannedReply(tx, id);
      if (!before) throw new AppError('SUPPORT_CANNED_REPLY_NOT_FOUND');
      await this.deps.repo.deleteCannedReply(tx, id);
      await this.deps.audit.record(tx, actor, { action: 'support-canned-reply.delete', targetType: 'support-canned-reply', targetId: id, before, after: null });
    });
  }

  // ---- shared steps

  private attachmentIds(ids: string[] | undefined): string[] {
    const unique = [...new Set(ids ?? [])];
    if (unique.length > SUPPORT_LIMITS.attachmentsPerMessage) throw new AppError('SUPPORT_TOO_MANY_ATTACHMENTS');
    return unique;
  }

  /** The message and its attachments: only the author's own uploads that no message took yet (404 otherwise). */
  private async addMessage(tx: Tx, ticketId: string, author: Viewer, authorId: string, body: string, attachments: string[], at: Date): Promise<string> {
    const messageId = await this.deps.repo.insertMessage(tx, { ticketId, author, authorId, body, at });
    const claimed = await this.deps.repo.claimAttachments(tx, attachments, authorId, messageId);
    if (claimed !== attachments.length) throw new AppError('SUPPORT_ATTACHMENT_NOT_FOUND');
    return messageId;
  }

  private async messages(q: Tx | undefined, ticket: TicketRow, viewer: Viewer): Promise<SupportMessage[]> {
    const { messages, attachments } = await this.deps.repo.messages(q, ticket.id);
    return messages.map((m) => toMessage(m, attachments, viewer, ticket.customer_email));
  }

  private textParams(ticket: TicketRow) {
    return { number: ticket.number, subject: ticket.subject, ticket: ticket.id, email: ticket.customer_email };
  }

  /** The assignee when there is one (and still an active operator), else every active operator. */
  private async alertOperators(tx: Tx, ticket: TicketRow, key: 'support_ticket_new' | 'support_customer_reply'): Promise<void> {
    const operators = await this.deps.repo.activeOperators(tx);
    const assignee = operators.find((o) => o.id === ticket.assignee_id);
    for (const op of assignee ? [assignee] : operators) {
      await this.deps.notifications.notify(op.id, 'other', key, this.textParams(ticket), tx, { language: op.language, marketing_consent: false });
    }
  }

  /** After the commit: the customer's open dashboards update the list and the conversation. */
  private async publish(userId: string, ticket: TicketRow, message?: SupportMessage): Promise<void> {
    let event: SupportTicketEvent = { ticket: toSummary(ticket, 'customer'), ...(message ? { message } : {}) };
    if (Buffer.byteLength(JSON.stringify(event)) > EVENT_BYTES_MAX) event = { ticket: event.ticket };
    await this.deps.bus.publish(SUPPORT_TICKET_TOPIC, { userId, event }).catch(() => {});
  }
}
