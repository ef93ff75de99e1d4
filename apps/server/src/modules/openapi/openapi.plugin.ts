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
        { name: 'telegram', description: 'Telegram: link a chat with the bot, choose its notifications' },
        { name: 'legal', description: 'The Terms of Service and the Refund Policy' },
        { name: 'catalog', description: 'What each choice buys: stock, measured speeds, latency, UDP, ASN' },
      ],
    },
    transform: (input) => {
      // Operator, development and page routes are not part of the public reference, but they stay in the full
      // document (`app.swagger()`), tagged internal, so that tests can walk every route (the route fuzz).
      const internal = input.schema?.hide === true || isInternalUrl(input.url);
      if (!internal) return jsonSchemaTransform(input);
      const { hide: _hide, ...schema } = input.schema ?? {};
      const out = jsonSchemaTransform({ ...input, schema });
      return { ...out, schema: { ...out.schema, tags: [INTERNAL_TAG] } };
    },
    transformObject: jsonSchemaTransformObject,
  });

  let published: unknown;
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache');
    published ??= publicDocument(app.swagger() as OpenApiDocument);
    return published;
  });
}

/** The tag of operations that the published document leaves out (operator, development and page routes). */
export const INTERNAL_TAG = 'x-internal';
const isInternalUrl = (url: string) =>
  url.startsWith('/api/v1/admin') || url.startsWith('/api/v1/dev') || url.startsWith('/dev') || !url.startsWith('/api/');

type OpenApiDocument = { paths?: Record<string, Record<string, { tags?: string[] }>> } & Record<string, unknown>;

/** The customer reference: the full document without its internal operations. */
function publicDocument(doc: OpenApiDocument): OpenApiDocument {
  const paths: NonNullable<OpenApiDocument['paths']> = {};
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const kept = Object.fromEntries(Object.entries(item).filter(([, op]) => !op?.tags?.includes(INTERNAL_TAG)));
    if (Object.keys(kept).length) paths[path] = kept;
  }
  return { ...doc, paths };
}
