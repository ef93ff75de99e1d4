import { okResponseSchema } from '@cellport/shared/schemas/admin/common';
import {
  adminTicketMessageRequestSchema, adminTicketResponseSchema, adminTicketsQuerySchema, adminTicketsResponseSchema,
  adminTicketUpdateRequestSchema, attachmentResponseSchema, attachmentUploadQuerySchema, cannedRepliesResponseSchema,
  cannedReplyRequestSchema, cannedReplyResponseSchema, cannedReplyUpdateRequestSchema, supportOperatorsResponseSchema,
  supportSummarySchema, ticketParamsSchema,
} from '@cellport/shared/schemas/support';
import type { App } from '../../context.js';
import { currentUser } from '../../plugins/session.js';
import { actorOf, adminRateLimits } from '../../lib/console-http.js';
import { UPLOAD_BODY_LIMIT } from './support-attachments.js';
import { uploadScope } from './support.routes.js';
import type { SupportService } from './support.service.js';

/**
 * The console's support inbox (issue 17 item 4): tickets by state, assignee and search, the nav badge's counts, a
 * ticket (marked read for the operators), replies, state and assignment, canned replies, and the operators'
 * screenshots. Every write is audited. Operators read attachments at the customer path (/api/v1/support/attachments/:id).
 */
export async function registerSupportAdminRoutes(app: App, support: SupportService): Promise<void> {
  const { read, write } = adminRateLimits;
  const params = ticketParamsSchema;

  app.get('/support/tickets', { config: read, schema: { querystring: adminTicketsQuerySchema, response: { 200: adminTicketsResponseSchema } } },
    async (r) => support.inbox(currentUser(r).userId, r.query));
  app.get('/support/summary', { config: read, schema: { response: { 200: supportSummarySchema } } },
    async (r) => support.summary(currentUser(r).userId));
  app.get('/support/operators', { config: read, schema: { response: { 200: supportOperatorsResponseSchema } } },
    async () => ({ items: await support.operators() }));
  app.get('/support/tickets/:id', { config: read, schema: { params, response: { 200: adminTicketResponseSchema } } },
    async (r) => ({ ticket: await support.adminGet(r.params.id) }));
  app.post('/support/tickets/:id/messages', {
    config: write, schema: { params, body: adminTicketMessageRequestSchema, response: { 201: adminTicketResponseSchema } },
  }, async (r, reply) => reply.status(201).send({ ticket: await support.adminReply(actorOf(r), r.params.id, r.body) }));
  app.patch('/support/tickets/:id', { config: write, schema: { params, body: adminTicketUpdateRequestSchema, response: { 200: adminTicketResponseSchema } } },
    async (r) => ({ ticket: await support.adminUpdate(actorOf(r), r.params.id, r.body) }));

  app.get('/support/canned-replies', { config: read, schema: { response: { 200: cannedRepliesResponseSchema } } },
    async () => ({ items: await support.cannedReplies() }));
  app.post('/support/canned-replies', { config: write, schema: { body: cannedReplyRequestSchema, response: { 201: cannedReplyResponseSchema } } },
    async (r, reply) => reply.status(201).send({ item: await support.createCannedReply(actorOf(r), r.body) }));
  app.patch('/support/canned-replies/:id', { config: write, schema: { params, body: cannedReplyUpdateRequestSchema, response: { 200: cannedReplyResponseSchema } } },
    async (r) => ({ item: await support.updateCannedReply(actorOf(r), r.params.id, r.body) }));
  app.delete('/support/canned-replies/:id', { config: write, schema: { params, response: { 200: okResponseSchema } } },
    async (r) => { await support.deleteCannedReply(actorOf(r), r.params.id); return { ok: true as const }; });

  await app.register(async (scope: App) => {
    uploadScope(scope);
    scope.post('/support/attachments', {
      config: write, bodyLimit: UPLOAD_BODY_LIMIT,
      schema: { querystring: attachmentUploadQuerySchema, response: { 201: attachmentResponseSchema } },
    }, async (r, reply) => reply.status(201).send({
      attachment: await support.operatorUpload(actorOf(r), r.headers['content-type'], r.body, r.query.name),
    }));
  });
}
