// prom-client's default metrics one by one (runtime/process-metrics.ts): each module exports a function that registers
// its series in a registry. The package has no types for these paths.
declare module 'prom-client/lib/metrics/*.js' {
  import type { Registry } from 'prom-client';
  const register: (registry: Registry, config?: { eventLoopMonitoringPrecision?: number }) => void;
  export default register;
}
