import swagger from '@fastify/swagger';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { App, AppContext } from '../../context.js';

/** The customer API accepts the session cookie or an API key as bearer (routes with `config: { apiKey: true }`). */
export const CUSTOMER_API_SECURITY: Array<Record<string, string[]>> = [{ cookieAuth: [] }, { bearerAuth: [] }];

/**
 * The OpenAPI document, generated from the zod schemas every route declares (fastify-type-provider-zod's
 * transform). Must be registered before the modules: @fastify/swagger collects routes as they are added.
 * Served at GET /api/v1/openapi.json; operator routes are left out of the customer documentation.
 */
export async function registerOpenApi(app: App, ctx: AppContext): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Cellport API',
        version: '1',
        description: 'The customer API of Cellport: list your ports, change their settings, rotate their IP and '
          + 'create rotation links. Authenticate with `Authorization: Bearer cpk_…` (create a key on the '
          + 'Documentation page) or the session cookie of a signed-in browser.',
      },
      servers: [{ url: ctx.config.publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key (cpk_…) — customer API routes only' },
          cookieAuth: { type: 'apiKey', in: 'cookie', name: 'cp_session' },
        },
      },
      tags: [
        { name: 'modems', description: 'Your ports: list, settings, rotation, rotation links' },
        { name: 'notifications', description: 'Notifications shown in the bell' },
        { name: 'traffic', description: 'Bytes in and out per port' },
        { name: 'api-keys', description: 'Keys for the customer API' },
        { name: 'dashboard', description: 'The dashboard summary' },
        { name: 'realtime', description: 'Token for the socket.io connection' },
        { name: 'hosts', description: 'For proxy hosts: traffic ingest' },
      ],
    },
    transform: (input) => {
      // Operator and development routes are not part of the public reference.
      if (input.url.startsWith('/api/v1/admin') || input.url.startsWith('/dev') || !input.url.startsWith('/api/')) {
        return { schema: { ...(input.schema ?? {}), hide: true }, url: input.url };
      }
      return jsonSchemaTransform(input);
    },
    transformObject: jsonSchemaTransformObject,
  });

  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    return app.swagger();
  });
}
