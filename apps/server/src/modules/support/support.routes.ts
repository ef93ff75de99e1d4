import {
  attachmentResponseSchema, attachmentUploadQuerySchema, createTicketRequestSchema, ticketMessageRequestSchema,
  ticketParamsSchema, ticketResponseSchema, ticketsResponseSchema,
} from '@cellport/shared/schemas/support';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { contentDisposition, UPLOAD_BODY_LIMIT } from './support-attachments.js';
import type { SupportService } from './support.service.js';

const perUser = (request: FastifyRequest) => request.user?.userId ?? request.ip;
/** Writes: per customer, like the other write endpoints of the dashboard. */
export const SUPPORT_WRITE_LIMIT = { rateLimit: { max: 30, timeWindow: '1 minute', keyGenerator: perUser } };

/**
 * A scope for an upload route: the raw body as a Buffer whatever its content type (the service checks the declared
 * type against the bytes), at most UPLOAD_BODY_LIMIT; a body over it is SUPPORT_ATTACHMENT_TOO_LARGE like one
 * between 5 MiB and the limit.
 */
export function uploadScope(scope: App): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: UPLOAD_BODY_LIMIT }, (_request, body, done) => done(null, body));
  scope.setErrorHandler((err: { code?: string }) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new AppError('SUPPORT_ATTACHMENT_TOO_LARGE');
    throw err;
  });
}

/**
 * Support tickets for customers (issue 17 item 4): their tickets, a new one (optionally about one of their ports),
 * replies, closing, and screenshots (uploaded, then referenced by a message). The session's customer only; every
 * query is scoped by their id, and someone else's ticket or attachment is a 404. The sweep of unreferenced uploads
 * is registered by the root (background.ts).
 */
export async function registerSupport(app: App, { support }: { support: SupportService }): Promise<SupportService> {
  const auth = { onRequest: requireUser };
  const write = { ...auth, config: SUPPORT_WRITE_LIMIT };
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

  app.get('/api/v1/support/tickets', { ...auth, schema: { response: { 200: ticketsResponseSchema } } }, async (request, reply) => {
    noStore(reply);
    return { tickets: await support.list(currentUser(request).userId) };
  });

  app.post('/api/v1/support/tickets', { ...write, schema: { body: createTicketRequestSchema, response: { 201: ticketResponseSchema } } },
    async (request, reply) => {
      const ticket = await support.open(currentUser(request).userId, request.body);
      return reply.status(201).send({ ticket });
    });

  app.get('/api/v1/support/tickets/:id', { ...auth, schema: { params: ticketParamsSchema, response: { 200: ticketResponseSchema } } },
    async (request, reply) => {
      noStore(reply);
      return { ticket: await support.get(currentUser(request).userId, request.params.id) };
    });

  app.post('/api/v1/support/tickets/:id/messages', {
    ...write, schema: { params: ticketParamsSchema, body: ticketMessageRequestSchema, response: { 201: ticketResponseSchema } },
  }, async (request, reply) => {
    const ticket = await support.reply(currentUser(request).userId, request.params.id, request.body.body, request.body.attachments);
    return reply.status(201).send({ ticket });
  });

  app.post('/api/v1/support/tickets/:id/close', { ...write, schema: { params: ticketParamsSchema, response: { 200: ticketResponseSchema } } },
    async (request) => ({ ticket: await support.close(currentUser(request).userId, request.params.id) }));

  await app.register(async (scope: App) => {
    uploadScope(scope);
    scope.post('/api/v1/support/attachments', {
      ...write, bodyLimit: UPLOAD_BODY_LIMIT,
      schema: { querystring: attachmentUploadQuerySchema, response: { 201: attachmentResponseSchema } },
    }, async (request, reply) => {
      const attachment = await support.upload(currentUser(request).userId, request.headers['content-type'], request.body, request.query.name);
      return reply.status(201).send({ attachment });
    });
  });

  // The bytes, for the ticket's customer and for operators (the console shows them from here too).
  app.get('/api/v1/support/attachments/:id', { ...auth, schema: { params: ticketParamsSchema } }, async (request, reply) => {
    const user = currentUser(request);
    const file = await support.download(user.userId, user.role === 'admin', request.params.id);
    return reply.header('content-type', file.type).header('content-length', String(file.data.length))
      .header('content-disposition', contentDisposition(file.name)).header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, max-age=3600').send(file.data);
  });

  return support;
}
