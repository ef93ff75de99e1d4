import { adminIdParamsSchema, okResponseSchema } from '@cellport/shared/schemas/admin/common';
import { adoptModemRequestSchema } from '@cellport/shared/schemas/admin/host-inventory';
import {
  modemImportRequestSchema, modemImportResponseSchema, modemPatchRequestSchema, modemRequestSchema,
  modemResponseSchema, modemsQuerySchema, modemsResponseSchema, stockResponseSchema,
} from '@cellport/shared/schemas/admin/modems';
import type { App } from '../../context.js';
import { actorOf, adminRateLimits } from '../../lib/console-http.js';
import type { ModemsAdminService } from './modems-admin.service.js';

/** The console's modems (with CSV import), the modems a host reports that the inventory adds, and the stock report. */
export function registerModemsAdminRoutes(app: App, modems: ModemsAdminService): void {
  const { read, write } = adminRateLimits;
  const byId = { params: adminIdParamsSchema };

  // A modem the host's agent reports and the inventory does not know: added with ports the host has free.
  app.post('/hosts/:id/modems', { config: write, schema: { ...byId, body: adoptModemRequestSchema, response: { 200: modemResponseSchema } } },
    async (request) => ({ modem: await modems.adopt(actorOf(request), request.params.id, request.body) }));

  app.get('/modems', { config: read, schema: { querystring: modemsQuerySchema, response: { 200: modemsResponseSchema } } },
    async (request) => modems.search(request.query));
  app.post('/modems', { config: write, schema: { body: modemRequestSchema, response: { 200: modemResponseSchema } } },
    async (request) => ({ modem: await modems.create(actorOf(request), request.body) }));
  app.patch('/modems/:id', { config: write, schema: { ...byId, body: modemPatchRequestSchema, response: { 200: modemResponseSchema } } },
    async (request) => ({ modem: await modems.update(actorOf(request), request.params.id, request.body) }));
  app.post('/modems/:id/retire', { config: write, schema: { ...byId, response: { 200: modemResponseSchema } } },
    async (request) => ({ modem: await modems.retire(actorOf(request), request.params.id) }));
  app.delete('/modems/:id', { config: write, schema: { ...byId, response: { 200: okResponseSchema } } },
    async (request) => { await modems.remove(actorOf(request), request.params.id); return { ok: true as const }; });

  // The CSV arrives as text (text/csv or text/plain) or as JSON {csv}.
  app.register(async (csvScope: App) => {
    csvScope.removeContentTypeParser('text/plain');
    csvScope.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'string', bodyLimit: 1_100_000 }, (_request, body, done) => done(null, body));
    csvScope.post('/modems/import', {
      config: write, bodyLimit: 1_100_000,
      schema: { body: modemImportRequestSchema, response: { 200: modemImportResponseSchema } },
    }, async (request) => {
      const body = request.body;
      return modems.import(actorOf(request), typeof body === 'string' ? body : body.csv);
    });
  });

  app.get('/stock', { config: read, schema: { response: { 200: stockResponseSchema } } }, async () => modems.stock());
}
