import { adminIdParamsSchema, okResponseSchema } from '@cellport/shared/schemas/admin/common';
import {
  modemImportRequestSchema, modemImportResponseSchema, modemPatchRequestSchema, modemRequestSchema,
  modemResponseSchema, modemsQuerySchema, modemsResponseSchema, stockResponseSchema,
} from '@cellport/shared/schemas/admin/modems';
import { adoptModemRequestSchema } from '@cellport/shared/schemas/admin/host-inventory';
import {
  gatewayPatchRequestSchema, gatewayRequestSchema, gatewayResponseSchema, gatewaysResponseSchema,
} from '@cellport/shared/schemas/admin/gateways';
import type { App, AppContext } from '../../../context.js';
import { actorOf, adminRateLimits } from '../../../lib/console-http.js';
import type { GatewaysService } from './gateways.service.js';
import type { ModemsService } from './modems.service.js';
import { stockReport } from './stock.service.js';

/** The gateways hosts behind NAT are reached through, modems (with CSV import) and the stock report; hosts: modules/hosts. */
export function registerInventoryRoutes(app: App, ctx: AppContext, gateways: GatewaysService, modems: ModemsService): void {
  const { read, write } = adminRateLimits;
  const byId = { params: adminIdParamsSchema };

  // A modem the host's agent reports and the inventory does not know: added with ports the host has free.
  app.post('/hosts/:id/modems', { config: write, schema: { ...byId, body: adoptModemRequestSchema, response: { 200: modemResponseSchema } } },
    async (request) => ({ modem: await modems.adopt(actorOf(request), request.params.id, request.body) }));

  app.get('/gateways', { config: read, schema: { response: { 200: gatewaysResponseSchema } } }, async () => gateways.list());
  app.post('/gateways', { config: write, schema: { body: gatewayRequestSchema, response: { 200: gatewayResponseSchema } } },
    async (request) => ({ gateway: await gateways.create(actorOf(request), request.body) }));
  app.patch('/gateways/:id', { config: write, schema: { ...byId, body: gatewayPatchRequestSchema, response: { 200: gatewayResponseSchema } } },
    async (request) => ({ gateway: await gateways.update(actorOf(request), request.params.id, request.body) }));
  // Refused (IN_USE) while a host is pinned to it.
  app.delete('/gateways/:id', { config: write, schema: { ...byId, response: { 200: okResponseSchema } } },
    async (request) => { await gateways.remove(actorOf(request), request.params.id); return { ok: true as const }; });

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

  app.get('/stock', { config: read, schema: { response: { 200: stockResponseSchema } } }, async () => stockReport(ctx.db));
}
