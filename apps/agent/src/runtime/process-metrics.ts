import type { Registry } from 'prom-client';
import eventLoopLag from 'prom-client/lib/metrics/eventLoopLag.js';
import heapSizeAndUsed from 'prom-client/lib/metrics/heapSizeAndUsed.js';
import heapSpacesSizeAndUsed from 'prom-client/lib/metrics/heapSpacesSizeAndUsed.js';
import osMemoryHeap from 'prom-client/lib/metrics/osMemoryHeap.js';
import processCpuTotal from 'prom-client/lib/metrics/processCpuTotal.js';
import processHandles from 'prom-client/lib/metrics/processHandles.js';
import processMaxFileDescriptors from 'prom-client/lib/metrics/processMaxFileDescriptors.js';
import processOpenFileDescriptors from 'prom-client/lib/metrics/processOpenFileDescriptors.js';
import processRequests from 'prom-client/lib/metrics/processRequests.js';
import processResources from 'prom-client/lib/metrics/processResources.js';
import processStartTime from 'prom-client/lib/metrics/processStartTime.js';
import version from 'prom-client/lib/metrics/version.js';

/**
 * prom-client's default process metrics (collectDefaultMetrics) except the GC histogram, nodejs_gc_duration_seconds:
 * it observes every collection through a PerformanceObserver, and a relay allocates enough for that to cost about a
 * fifth more CPU per GB moved (bench/BENCHMARKS.md, "Agent metrics on against off"). The rest is read when scraped (CPU,
 * memory, heap, handles, descriptors) or sampled by libuv (the event loop's delay).
 */
export function collectProcessMetrics(registry: Registry): void {
  const config = { eventLoopMonitoringPrecision: 10 };
  const metrics = [
    processCpuTotal, processStartTime, osMemoryHeap, processOpenFileDescriptors, processMaxFileDescriptors, eventLoopLag,
    processHandles, processRequests, heapSizeAndUsed, heapSpacesSizeAndUsed, version,
  ];
  if (typeof process.getActiveResourcesInfo === 'function') metrics.push(processResources);
  for (const metric of metrics) metric(registry, config);
}
