// The catalog's face (decision 044), begun for the domains that read it; catalog is not yet a domain itself
// (not-yet-domains.json).
export { CatalogService, localized, regionNames } from './catalog.service.js';
export { discountsToApi, trialToApi } from './tariff-offers.js';
export { limitsToApi } from './tariff-limits.js';
