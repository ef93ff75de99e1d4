// The catalog (decision 044): countries, carriers, regions, tariffs and rotation-interval choices as customers read
// them and the console edits them, what each Add Proxies choice buys (stock, speeds, UDP, ASN) and the modems' speed
// medians the agents' tests give.
export { CatalogAdminRepository } from './catalog-admin.repository.js';
export { registerCatalogAdminRoutes } from './catalog-admin.routes.js';
export { CatalogAdminService } from './catalog-admin.service.js';
export { CatalogOffersCache } from './catalog-offers.js';
export { CatalogRepository } from './catalog.repository.js';
export { registerCatalog } from './catalog.routes.js';
export { CatalogService, localized, regionNames } from './catalog.service.js';
export { ModemQualityTracker } from './modem-quality-tracker.js';
export { limitsToApi, type TariffLimitColumns } from './tariff-limits.js';
export { discountsToApi, trialToApi } from './tariff-offers.js';
