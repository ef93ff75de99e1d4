import { portParamsSchema, languageQuerySchema } from '@cellport/shared/schemas/catalog';
import { fingerprintCheckResponseSchema, fingerprintPresetsResponseSchema } from '@cellport/shared/schemas/fingerprint';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../context.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { requestLanguage } from '../../lib/request-language.js';
import { CUSTOMER_API_SECURITY } from '../openapi/index.js';
import { FINGERPRINT_CHECKS_PER_MINUTE, type FingerprintCheckService } from './fingerprint.service.js';
import { presetEntries } from './preset-texts.js';

/** OS fingerprint presets (issue 30): the list, and "what a site sees" per port. A port's preset is set by PATCH /modems/:id. */
export function registerFingerprint(app: App, { fingerprintCheck }: { fingerprintCheck: FingerprintCheckService }): void {
  app.get('/api/v1/fingerprint-presets', {
    onRequest: requireUser, config: { apiKey: true },
    schema: { tags: ['modems'], security: CUSTOMER_API_SECURITY, querystring: languageQuerySchema, response: { 200: fingerprintPresetsResponseSchema } },
  }, async (request) => ({ presets: presetEntries(requestLanguage(request)) }));

  // A POST: it acts outside (a connection through the port), so a read-only API key is refused like on other writes.
  app.post('/api/v1/modems/:id/fingerprint-check', {
    onRequest: requireUser,
    config: {
      apiKey: true,
      rateLimit: { max: FINGERPRINT_CHECKS_PER_MINUTE, timeWindow: '1 minute', keyGenerator: (request: FastifyRequest) => request.user?.userId ?? request.ip },
    },
    schema: { tags: ['modems'], security: CUSTOMER_API_SECURITY, params: portParamsSchema, response: { 200: fingerprintCheckResponseSchema } },
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return fingerprintCheck.check(currentUser(request).userId, request.params.id);
  });
}
