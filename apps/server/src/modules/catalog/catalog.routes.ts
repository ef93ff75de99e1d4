import {
  catalogOffersResponseSchema, countriesResponseSchema, languageQuerySchema, modemCountParamsSchema, modemCountQuerySchema,
  modemCountResponseSchema, rotationTagsResponseSchema, tariffsResponseSchema,
} from '@cellport/shared/schemas/catalog';
import type { App } from '../../context.js';
import { requestLanguage } from '../../lib/request-language.js';
import type { CatalogOffersCache } from './catalog-offers.js';
import type { CatalogService } from './catalog.service.js';

/** What the public catalog's routes read. */
export interface CatalogRouteDeps { catalog: CatalogService; catalogOffers: CatalogOffersCache }

const PUBLIC_CACHE = 'public, max-age=60';

/** The public catalog: countries, tariffs, rotation choices and live stock counts (offers: a cache the root starts). */
export async function registerCatalog(app: App, { catalog, catalogOffers }: CatalogRouteDeps): Promise<void> {
  // A buyer reads the stock after their own purchase: any write of a signed-in customer on this instance drops the kept
  // offers before it is answered, without waiting for the database's announcement (as the ports' lists do, decision 015).
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (request.user && request.method !== 'GET' && request.method !== 'HEAD') catalogOffers.drop();
    done(null, payload);
  });

  app.get('/api/v1/countries', { schema: { querystring: languageQuerySchema, response: { 200: countriesResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', PUBLIC_CACHE).header('vary', 'Accept-Language');
      return catalog.countries(requestLanguage(request));
    });

  app.get('/api/v1/tariffs', { schema: { response: { 200: tariffsResponseSchema } } }, async (_request, reply) => {
    reply.header('cache-control', PUBLIC_CACHE);
    return catalog.tariffs();
  });

  app.get('/api/v1/modems/rotation-tags',
    { schema: { querystring: languageQuerySchema, response: { 200: rotationTagsResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', PUBLIC_CACHE).header('vary', 'Accept-Language');
      return catalog.rotationTags(requestLanguage(request));
    });

  // What each choice buys, from memory (catalog-offers.ts): the page asks it once, the public API as often as it likes.
  app.get('/api/v1/catalog/offers', { schema: { tags: ['catalog'], response: { 200: catalogOffersResponseSchema } } }, async (_request, reply) => {
    // Stock moves with every sale: never kept by a browser, or a buyer would see the stock from before their purchase.
    reply.header('cache-control', 'no-store');
    return { offers: await catalogOffers.offers() };
  });

  app.get('/api/v1/modems/count/:country_id',
    { schema: { params: modemCountParamsSchema, querystring: modemCountQuerySchema, response: { 200: modemCountResponseSchema } } },
    async (request, reply) => {
      const q = request.query;
      reply.header('cache-control', 'no-store');
      // From the kept offers (catalog-offers.ts): the page asks on every change of the form, and summing the stock
      // of a country is a scan of its modems (116,000 for one country at `bench/scale.mjs --scale 10`).
      const count = await catalogOffers.stock({
        countryId: request.params.country_id,
        isShared: q.isShared === undefined ? undefined : q.isShared === 'true',
        carrierId: q.carrier_id, regionId: q.region_id, rotationInterval: q.rotationInterval,
      });
      return { count };
    });
}
