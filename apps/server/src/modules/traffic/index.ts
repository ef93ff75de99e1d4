// Traffic (decision 044): what proxy hosts report (counted once per batch), the customers' series, CSV and quotas.
// The hosts' ingest keys are the hosts domain's (hosts/index.ts).
export { recordQuotaCrossings } from './port-quota.js';
export { trafficReport } from './traffic-report.js';
export { screenSamples } from './traffic-samples.js';
export { TrafficRepository, type PortSample } from './traffic.repository.js';
export { registerTraffic } from './traffic.routes.js';
