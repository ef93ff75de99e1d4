import {
  adminCatalogResponseSchema, carrierPatchRequestSchema, carrierRequestSchema, carrierResponseSchema,
  countryPatchRequestSchema, countryRequestSchema, countryResponseSchema, regionPatchRequestSchema,
  regionRequestSchema, regionResponseSchema, rotationIntervalParamsSchema, rotationIntervalPatchRequestSchema,
  rotationIntervalRequestSchema, rotationIntervalResponseSchema, tariffPatchRequestSchema, tariffRequestSchema,
  tariffResponseSchema,
} from '@cellport/shared/schemas/admin/catalog';
import { adminIdParamsSchema, okResponseSchema } from '@cellport/shared/schemas/admin/common';
import type { App } from '../../context.js';
import { actorOf, adminRateLimits } from '../../lib/console-http.js';
import type { CatalogAdminService } from './catalog-admin.service.js';

const ok = { ok: true as const };

/** Countries, carriers, regions, tariffs and rotation-interval choices. */
export function registerCatalogAdminRoutes(app: App, catalog: CatalogAdminService): void {
  const { read, write } = adminRateLimits;
  const params = adminIdParamsSchema;
  const done = { response: { 200: okResponseSchema } };

  app.get('/catalog', { config: read, schema: { response: { 200: adminCatalogResponseSchema } } }, async () => catalog.catalog());

  app.post('/countries', { config: write, schema: { body: countryRequestSchema, response: { 200: countryResponseSchema } } },
    async (r) => ({ country: await catalog.createCountry(actorOf(r), r.body) }));
  app.patch('/countries/:id', { config: write, schema: { params, body: countryPatchRequestSchema, response: { 200: countryResponseSchema } } },
    async (r) => ({ country: await catalog.updateCountry(actorOf(r), r.params.id, r.body) }));
  app.delete('/countries/:id', { config: write, schema: { params, ...done } },
    async (r) => { await catalog.deleteCountry(actorOf(r), r.params.id); return ok; });

  app.post('/carriers', { config: write, schema: { body: carrierRequestSchema, response: { 200: carrierResponseSchema } } },
    async (r) => ({ carrier: await catalog.createCarrier(actorOf(r), r.body) }));
  app.patch('/carriers/:id', { config: write, schema: { params, body: carrierPatchRequestSchema, response: { 200: carrierResponseSchema } } },
    async (r) => ({ carrier: await catalog.updateCarrier(actorOf(r), r.params.id, r.body) }));
  app.delete('/carriers/:id', { config: write, schema: { params, ...done } },
    async (r) => { await catalog.deleteCarrier(actorOf(r), r.params.id); return ok; });

  app.post('/regions', { config: write, schema: { body: regionRequestSchema, response: { 200: regionResponseSchema } } },
    async (r) => ({ region: await catalog.createRegion(actorOf(r), r.body) }));
  app.patch('/regions/:id', { config: write, schema: { params, body: regionPatchRequestSchema, response: { 200: regionResponseSchema } } },
    async (r) => ({ region: await catalog.updateRegion(actorOf(r), r.params.id, r.body) }));
  app.delete('/regions/:id', { config: write, schema: { params, ...done } },
    async (r) => { await catalog.deleteRegion(actorOf(r), r.params.id); return ok; });

  app.post('/tariffs', { config: write, schema: { body: tariffRequestSchema, response: { 200: tariffResponseSchema } } },
    async (r) => ({ tariff: await catalog.createTariff(actorOf(r), r.body) }));
  app.patch('/tariffs/:id', { config: write, schema: { params, body: tariffPatchRequestSchema, response: { 200: tariffResponseSchema } } },
    async (r) => ({ tariff: await catalog.updateTariff(actorOf(r), r.params.id, r.body) }));
  app.delete('/tariffs/:id', { config: write, schema: { params, ...done } },
    async (r) => { await catalog.deleteTariff(actorOf(r), r.params.id); return ok; });

  const minutes = rotationIntervalParamsSchema;
  app.post('/rotation-intervals', { config: write, schema: { body: rotationIntervalRequestSchema, response: { 200: rotationIntervalResponseSchema } } },
    async (r) => ({ rotationInterval: await catalog.createInterval(actorOf(r), r.body) }));
  app.patch('/rotation-intervals/:minutes', { config: write, schema: { params: minutes, body: rotationIntervalPatchRequestSchema, response: { 200: rotationIntervalResponseSchema } } },
    async (r) => ({ rotationInterval: await catalog.updateInterval(actorOf(r), r.params.minutes, r.body) }));
  app.delete('/rotation-intervals/:minutes', { config: write, schema: { params: minutes, ...done } },
    async (r) => { await catalog.deleteInterval(actorOf(r), r.params.minutes); return ok; });
}
