import { sql } from 'kysely';
import type { AdminTicketsQuery, SupportAttachmentType, TicketState } from '@cellport/shared/schemas/support';
import type { Database, Tx } from '../../db/database.js';
import { paging } from '../../lib/console-http.js';
import { cappedTotal, containsPattern, LIST_COUNT_CAP } from '../../lib/console-lists.repository.js';

type Q = Database | Tx;

/** A ticket with what its summary names: the port, the customer's e-mail, the assignee's name. */
export interface TicketRow {
  id: string; number: number; user_id: string; subject: string; state: TicketState;
  port_id: string | null; port_name: string | null;
  assignee_id: string | null; assignee_name: string | null; customer_email: string;
  last_message_at: Date; last_customer_message_at: Date | null; last_operator_message_at: Date | null;
  customer_read_at: Date | null; operator_read_at: Date | null; created_at: Date;
}
export interface MessageRow {
  id: string; author: 'customer' | 'operator'; author_id: string | null; author_name: string | null; body: string; created_at: Date;
}
export interface AttachmentRow { id: string; message_id: string | null; name: string; type: SupportAttachmentType; size: number }
export interface CannedReplyRow { id: string; title: string; body: string }

/** Support tickets, their messages, attachments and canned replies. Every customer query is scoped by the user id. */
export class SupportRepository {
  constructor(private readonly db: Database) {}

  /** One transaction for the service's steps: it hands the Tx on to what joins it (the audit log, notifications). */
  async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  private tickets(q: Q = this.db) {
    return q.selectFrom('support_tickets as t')
      .innerJoin('users as c', 'c.id', 't.user_id')
      .leftJoin('ports as p', 'p.id', 't.port_id')
      .leftJoin('users as a', 'a.id', 't.assignee_id')
      .select([
        't.id', 't.number', 't.user_id', 't.subject', 't.state', 't.port_id', 'p.name as port_name', 't.assignee_id',
        'a.name as assignee_name', 'c.email as customer_email', 't.last_message_at', 't.last_customer_message_at',
        't.last_operator_message_at', 't.customer_read_at', 't.operator_read_at', 't.created_at',
      ]);
  }

  /** A customer's tickets, newest activity first. */
  async customerTickets(userId: string, limit = 200): Promise<TicketRow[]> {
    return await this.tickets().where('t.user_id', '=', userId)
      .orderBy('t.last_message_at', 'desc').orderBy('t.id').limit(limit).execute() as TicketRow[];
  }

  /** One ticket (in `q`, or outside a transaction): the customer's own when `userId` is given (anyone's for operators); locked with `forUpdate`. */
  async ticket(q: Q | undefined, id: string, userId: string | null, forUpdate = false): Promise<TicketRow | undefined> {
    let query = this.tickets(q ?? this.db).where('t.id', '=', id);
    if (userId) query = query.where('t.user_id', '=', userId);
    if (forUpdate) query = query.forUpdate('t');
    return await query.executeTakeFirst() as TicketRow | undefined;
  }

  async messages(q: Q = this.db, ticketId: string): Promise<{ messages: MessageRow[]; attachments: AttachmentRow[] }> {
    const messages = await q.selectFrom('support_messages as m').leftJoin('users as u', 'u.id', 'm.author_id')
      .select(['m.id', 'm.author', 'm.author_id', 'u.name as author_name', 'm.body', 'm.created_at'])
      .where('m.ticket_id', '=', ticketId).orderBy('m.created_at').orderBy('m.id').execute() as MessageRow[];
    const attachments = messages.length === 0 ? [] : await q.selectFrom('support_attachments')
      .select(['id', 'message_id', 'name', 'type', 'size'])
      .where('message_id', 'in', messages.map((m) => m.id)).orderBy('created_at').orderBy('id').execute();
    return { messages, attachments };
  }

  async attachmentsOf(q: Q, messageId: string): Promise<AttachmentRow[]> {
    return q.selectFrom('support_attachments').select(['id', 'message_id', 'name', 'type', 'size'])
      .where('message_id', '=', messageId).orderBy('created_at').orderBy('id').execute();
  }

  async customerPort(q: Q, userId: string, portId: string): Promise<{ id: string } | undefined> {
    return q.selectFrom('ports').select('id').where('id', '=', portId).where('user_id', '=', userId).executeTakeFirst();
  }

  async insertTicket(tx: Tx, v: { userId: string; portId: string | null; subject: string; at: Date }): Promise<string> {
    const row = await tx.insertInto('support_tickets').values({
      user_id: v.userId, port_id: v.portId, subject: v.subject, state: 'open', assignee_id: null,
      last_message_at: v.at, last_customer_message_at: v.at, last_operator_message_at: null,
      customer_read_at: v.at, operator_read_at: null, created_at: v.at,
    }).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  async insertMessage(tx: Tx, v: { ticketId: string; author: 'customer' | 'operator'; authorId: string; body: string; at: Date }): Promise<string> {
    const row = await tx.insertInto('support_messages').values({
      ticket_id: v.ticketId, author: v.author, author_id: v.authorId, body: v.body, created_at: v.at,
    }).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  /** Attaches the uploader's own unreferenced uploads to a message; returns how many it took. */
  async claimAttachments(tx: Tx, ids: string[], uploadedBy: string, messageId: string): Promise<number> {
    if (ids.length === 0) return 0;
    const rows = await tx.updateTable('support_attachments').set({ message_id: messageId })
      .where('id', 'in', ids).where('uploaded_by', '=', uploadedBy).where('message_id', 'is', null)
      .returning('id').execute();
    return rows.length;
  }

  async updateTicket(tx: Tx, id: string, set: {
    state?: TicketState; assignee_id?: string | null; last_message_at?: Date; last_customer_message_at?: Date;
    last_operator_message_at?: Date; customer_read_at?: Date; operator_read_at?: Date;
  }): Promise<void> {
    await tx.updateTable('support_tickets').set(set).where('id', '=', id).execute();
  }

  /** Marks the ticket read by its customer (`userId`) or by the operators (null); false when there is no such ticket. */
  async markRead(id: string, userId: string | null): Promise<boolean> {
    let q = this.db.updateTable('support_tickets')
      .set(userId ? { customer_read_at: sql`now()` } : { operator_read_at: sql`now()` }).where('id', '=', id);
    if (userId) q = q.where('user_id', '=', userId);
    const done = await q.returning('id').executeTakeFirst();
    return Boolean(done);
  }

  // ---- attachments

  /** Bytes `userId` uploaded since `since`, sent or not. */
  async uploadedBytesSince(userId: string, since: Date): Promise<number> {
    const row = await this.db.selectFrom('support_attachments').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), eb.val(0)).as('bytes'))
      .where('uploaded_by', '=', userId).where('created_at', '>', since).executeTakeFirstOrThrow();
    return Number(row.bytes);
  }

  async insertAttachment(v: { uploadedBy: string; name: string; type: SupportAttachmentType; data: Buffer }): Promise<AttachmentRow> {
    return this.db.insertInto('support_attachments').values({
      uploaded_by: v.uploadedBy, message_id: null, name: v.name, type: v.type, size: v.data.length, data: v.data,
    }).returning(['id', 'message_id', 'name', 'type', 'size']).executeTakeFirstOrThrow();
  }

  /**
   * An attachment's bytes for `userId`: an operator reads any; a customer reads their own uploads and what is
   * attached to their own tickets. undefined otherwise.
   */
  async attachmentFor(id: string, userId: string, operator: boolean) {
    let q = this.db.selectFrom('support_attachments as f')
      .leftJoin('support_messages as m', 'm.id', 'f.message_id')
      .leftJoin('support_tickets as t', 't.id', 'm.ticket_id')
      .select(['f.id', 'f.name', 'f.type', 'f.size', 'f.data'])
      .where('f.id', '=', id);
    if (!operator) q = q.where((eb) => eb.or([eb('f.uploaded_by', '=', userId), eb('t.user_id', '=', userId)]));
    return q.executeTakeFirst();
  }

  /** Deletes uploads no message references, uploaded before `before`. */
  /** Whether an upload no message took is older than `before` (the partial index support_attachments_unreferenced). */
  async hasUnreferencedBefore(before: Date): Promise<boolean> {
    return Boolean(await this.db.selectFrom('support_attachments').select('id').where('message_id', 'is', null)
      .where('created_at', '<', before).limit(1).executeTakeFirst());
  }

  async deleteUnreferenced(q: Q, before: Date): Promise<number> {
    const rows = await q.deleteFrom('support_attachments').where('message_id', 'is', null)
      .where('created_at', '<', before).returning('id').execute();
    return rows.length;
  }

  // ---- operators

  async activeOperators(q: Q = this.db): Promise<Array<{ id: string; name: string; email: string; language: string }>> {
    return q.selectFrom('users').select(['id', 'name', 'email', 'language'])
      .where('role', '=', 'admin').where('is_active', '=', true).orderBy('name').orderBy('id').execute();
  }

  async inbox(operatorId: string, query: AdminTicketsQuery): Promise<{ rows: TicketRow[]; total: number; totalCapped: boolean; page: number; pageSize: number }> {
    const { page, pageSize, offset } = paging(query);
    let q = this.tickets();
    if (query.state) q = q.where('t.state', '=', query.state);
    if (query.assignee === 'me') q = q.where('t.assignee_id', '=', operatorId);
    else if (query.assignee === 'none') q = q.where('t.assignee_id', 'is', null);
    else if (query.assignee) q = q.where('t.assignee_id', '=', query.assignee);
    if (query.q) {
      const like = containsPattern(query.q.toLowerCase());
      const number = /^#?\d{1,9}$/.test(query.q) ? Number(query.q.replace('#', '')) : null;
      q = q.where((eb) => eb.or([
        eb(sql`lower(t.subject)`, 'like', like),
        eb(sql`lower(c.email)`, 'like', like),
        ...(number !== null ? [eb('t.number', '=', number)] : []),
      ]));
    }
    const [rows, total] = await Promise.all([
      q.orderBy('t.last_message_at', 'desc').orderBy('t.id').limit(pageSize).offset(offset).execute() as Promise<TicketRow[]>,
      cappedTotal(this.db, q, LIST_COUNT_CAP),
    ]);
    return { rows, ...total, page, pageSize };
  }

  async summary(operatorId: string): Promise<{ open: number; waiting: number; unassigned: number; mine: number }> {
    const row = await this.db.selectFrom('support_tickets').select([
      sql<string>`count(*) filter (where state = 'open')`.as('open'),
      sql<string>`count(*) filter (where state = 'waiting')`.as('waiting'),
      sql<string>`count(*) filter (where state <> 'closed' and assignee_id is null)`.as('unassigned'),
      sql<string>`count(*) filter (where state = 'open' and assignee_id = ${operatorId})`.as('mine'),
    ]).where('state', '<>', 'closed').executeTakeFirstOrThrow();
    return { open: Number(row.open), waiting: Number(row.waiting), unassigned: Number(row.unassigned), mine: Number(row.mine) };
  }

  // ---- canned replies

  async cannedReplies(): Promise<CannedReplyRow[]> {
    return this.db.selectFrom('support_canned_replies').select(['id', 'title', 'body']).orderBy('title').orderBy('id').execute();
  }

  async cannedReply(q: Q, id: string): Promise<CannedReplyRow | undefined> {
    return q.selectFrom('support_canned_replies').select(['id', 'title', 'body']).where('id', '=', id).executeTakeFirst();
  }

  async insertCannedReply(tx: Tx, v: { title: string; body: string; createdBy: string }): Promise<CannedReplyRow> {
    return tx.insertInto('support_canned_replies').values({ title: v.title, body: v.body, created_by: v.createdBy })
      .returning(['id', 'title', 'body']).executeTakeFirstOrThrow();
  }

  async updateCannedReply(tx: Tx, id: string, v: { title?: string; body?: string }): Promise<CannedReplyRow> {
    return tx.updateTable('support_canned_replies').set({ ...v, updated_at: sql`now()` }).where('id', '=', id)
      .returning(['id', 'title', 'body']).executeTakeFirstOrThrow();
  }

  async deleteCannedReply(tx: Tx, id: string): Promise<void> {
    await tx.deleteFrom('support_canned_replies').where('id', '=', id).execute();
  }
}
