import {
  portParamsSchema, portPatchRequestSchema, portSchema, portsQuerySchema, portsResponseSchema, publicRotateResponseSchema,
  rotateResponseSchema, rotateTokenParamsSchema, rotationLinkResponseSchema, rotationRefusedSchema, rotationTooSoonSchema, type Port,
} from '@cellport/shared/schemas/catalog';
import { errorResponseSchema } from '@cellport/shared/schemas/auth';
import type { App } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { hashToken } from '../../lib/tokens.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { requestLanguage } from '../../lib/request-language.js';
import { CUSTOMER_API_SECURITY } from '../openapi/index.js';
import type { PortsListCache } from './ports-list-cache.js';
import type { PortsRepository } from './ports.repository.js';
import type { PortsService } from './ports.service.js';
import type { RotationService } from './rotation.service.js';
import { reportWhitelistConflicts } from './whitelist-conflicts.js';

export interface PortsRouteDeps {
  ports: PortsService; rotation: RotationService; portsLists: PortsListCache; portsRepository: PortsRepository;
}

/** The customer's ports ("modems" in the API): list, settings, rotation and rotation links. */
export async function registerPorts(app: App, deps: PortsRouteDeps): Promise<void> {
  const { ports: service, rotation, portsLists: lists } = deps;
  // Whitelists that overlap on a modem from before the check (or brought by a replacement): told to the operator.
  await reportWhitelistConflicts(deps.portsRepository, app.log);
  // A customer reads their own writes: any write request of theirs (a purchase, a renewal, a new name, a rotation…)
  // drops their kept lists before it is answered, without waiting for the database's announcement.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (request.user && request.method !== 'GET' && request.method !== 'HEAD') lists.invalidate(request.user.userId);
    done(null, payload);
  });

  // The customer API: these four also accept `Authorization: Bearer cpk_…` (config.apiKey).
  app.get('/api/v1/modems', { onRequest: requireUser, config: { apiKey: true }, schema: { tags: ['modems'], security: CUSTOMER_API_SECURITY, querystring: portsQuerySchema, response: { 200: portsResponseSchema } } },
    async (request, reply) => {
      const { userId } = currentUser(request);
      const lng = requestLanguage(request);
      // A tag filter is a script's or an agent's one-off read, not the dashboard's poll: read, not kept.
      if (request.query.tag) return reply.header('cache-control', 'no-store').send(await service.listTagged(userId, lng, request.query.tag));
      // Ready JSON, checked against portsResponseSchema when it was made. Fastify sends a string with a JSON type as
      // it is; the type provider only knows the object form, hence the cast.
      const json = await lists.json(userId, lng, () => service.list(userId, lng));
      return reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(json as unknown as Port[]);
    });

  app.patch('/api/v1/modems/:id',
    { onRequest: requireUser, config: { apiKey: true }, schema: { tags: ['modems'], security: CUSTOMER_API_SECURITY, params: portParamsSchema, body: portPatchRequestSchema, response: { 200: portSchema } } },
    async (request) => {
      const user = currentUser(request);
      // Turning auto-renew on commits the balance to future renewals: only a 'full' API key (or the person) may.
      if (request.body.autoRenew === true && user.apiKey && user.apiKey.scope !== 'full') throw new AppError('API_KEY_CANNOT_SPEND');
      return service.update(user.userId, request.params.id, request.body, requestLanguage(request));
    });

  app.post('/api/v1/modems/:id/rotate',
    { onRequest: requireUser, config: { apiKey: true }, schema: { tags: ['modems'], security: CUSTOMER_API_SECURITY, params: portParamsSchema, response: { 200: rotateResponseSchema, 409: rotationRefusedSchema, 429: rotationTooSoonSchema } } },
    async (request) => rotation.rotateOwnPort(currentUser(request).userId, request.params.id));

  app.post('/api/v1/modems/:id/rotation-link',
    { onRequest: requireUser, config: { apiKey: true }, schema: { tags: ['modems'], security: CUSTOMER_API_SECURITY, params: portParamsSchema, response: { 200: rotationLinkResponseSchema, 409: rotationRefusedSchema } } },
    async (request) => ({ rotationLink: await service.newRotationLink(currentUser(request).userId, request.params.id) }));

  // Opened by scripts and bookmarks without a session, so it is a GET, allowed cross-site, limited per IP.
  app.get('/api/v1/rotate/:token', {
    config: { crossSite: true, rateLimit: { max: 30, timeWindow: '1 minute' } },
    schema: { tags: ['modems'], params: rotateTokenParamsSchema, response: { 200: publicRotateResponseSchema, 404: errorResponseSchema, 409: rotationRefusedSchema, 429: rotationTooSoonSchema } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { old_ip, new_ip } = await rotation.rotateByTokenHash(hashToken(request.params.token));
    return { old_ip, new_ip };
  });
}
