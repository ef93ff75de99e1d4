import { legalDocumentParamsSchema, legalDocumentQuerySchema, legalDocumentSchema } from '@cellport/shared/schemas/legal';
import type { App, AppContext } from '../../context.js';
import type { LegalService } from './legal.service.js';

/** GET /api/v1/legal/:kind?language=xx — public: the latest Terms of Service or Refund Policy in a language. */
export function registerLegal(app: App, _ctx: AppContext, { legal }: { legal: LegalService }): void {
  app.get('/api/v1/legal/:kind', {
    config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
    schema: { tags: ['legal'], params: legalDocumentParamsSchema, querystring: legalDocumentQuerySchema, response: { 200: legalDocumentSchema } },
  }, async (request, reply) => {
    // Revalidated each time: an operator's new version shows at once.
    reply.header('cache-control', 'no-cache');
    return legal.latest(request.params.kind, request.query.language);
  });
}
