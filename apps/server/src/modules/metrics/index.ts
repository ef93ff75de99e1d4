// Metrics (decision 044): the server's Prometheus registry, the gauges read from the database, GET /metrics.
export { countPortsListServes } from './counted-ports-list.js';
export { MetricsRepository } from './metrics.repository.js';
export { registerMetrics } from './metrics.routes.js';
export { ScrapeCounts } from './scrape-counts.js';
export { ServerMetrics } from './server-metrics.js';
