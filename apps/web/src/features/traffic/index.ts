// What the rest of the app uses from traffic: a port's usage against its monthly quota (Your Proxies).
export { portQuotasQuery } from './api/get-quotas';
export { QuotaMeter } from './components/quota-meter';
