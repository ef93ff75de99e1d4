import {
  adminLegalParamsSchema, adminLegalPublishRequestSchema, adminLegalPublishResponseSchema, adminLegalVersionsResponseSchema,
} from '@cellport/shared/schemas/admin/legal';
import type { App } from '../../context.js';
import { actorOf, adminRateLimits } from '../../lib/console-http.js';
import type { LegalService } from './legal.service.js';

/** Console, Legal texts: the versions of a document in a language, and publishing a new one (audited). */
export function registerLegalAdminRoutes(app: App, legal: LegalService): void {
  app.get('/legal/:kind/:language', {
    config: adminRateLimits.read, schema: { params: adminLegalParamsSchema, response: { 200: adminLegalVersionsResponseSchema } },
  }, async (r) => ({ versions: await legal.versions(r.params.kind, r.params.language) }));
  app.post('/legal/:kind/:language', {
    config: adminRateLimits.write,
    schema: { params: adminLegalParamsSchema, body: adminLegalPublishRequestSchema, response: { 200: adminLegalPublishResponseSchema } },
  }, async (r) => ({ version: await legal.publish(actorOf(r), r.params.kind, r.params.language, r.body.body) }));
}
