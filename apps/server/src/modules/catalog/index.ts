// The catalog's face (decision 044), begun for the domains that read it; catalog is not yet a domain itself
// (not-yet-domains.json). The request's language is here until it moves to lib/.
export { localized } from './catalog.service.js';
export { askedLanguage, readerLanguage, requestLanguage } from './request-language.js';
export { discountsToApi, trialToApi } from './tariff-offers.js';
