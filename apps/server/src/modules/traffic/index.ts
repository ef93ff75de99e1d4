// Traffic (decision 044): what proxy hosts report (counted once per batch), the customers' series, CSV and quotas,
// and the hosts' ingest keys.
export { demoHostKey, HOST_KEY_PREFIX, hostForKey, issueHostKey } from './host-keys.repository.js';
export { recordQuotaCrossings } from './port-quota.js';
export { trafficReport } from './traffic-report.js';
export { screenSamples } from './traffic-samples.js';
export { TrafficRepository, type PortSample } from './traffic.repository.js';
export { registerTraffic } from './traffic.routes.js';
