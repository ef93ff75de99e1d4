// Load generation shared by the benches: closed loop (saturation) and open loop (latency at a given rate).

/** Latency percentiles (ms), throughput and how many requests were answered (`count`, wrong answers included). */
export function stats(latencies, errors, elapsedSeconds) {
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return { count: latencies.length, rps: latencies.length / elapsedSeconds, p50: pct(0.5), p99: pct(0.99), max: latencies.at(-1) ?? 0, errors };
}

/**
 * Closed loop: `workers` loops, each sending its next request as soon as the previous answer arrived, for
 * `seconds`. `send(worker, i)` resolves to true when the answer was the expected one.
 */
export async function closedLoop(seconds, workers, send) {
  const latencies = [];
  let errors = 0;
  let i = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(Array.from({ length: workers }, async (_, worker) => {
    while (performance.now() < until) {
      const t0 = performance.now();
      const ok = await send(worker, i++);
      latencies.push(performance.now() - t0);
      if (!ok) errors++;
    }
  }));
  return stats(latencies, errors, (performance.now() - started) / 1000);
}

/**
 * Open loop: each entry of `due` ({ at: ms from start, ... }, sorted) is sent when due, whatever is still in
 * flight; latency counts from the due time, so a server that falls behind is not hidden by a waiting client.
 */
export async function openLoop(due, send) {
  const latencies = [];
  let errors = 0;
  const inflight = new Set();
  const start = performance.now();
  let k = 0;
  while (k < due.length) {
    const now = performance.now() - start;
    while (k < due.length && due[k].at <= now) {
      const d = due[k++];
      const dueAt = start + d.at;
      const p = send(d).then((ok) => {
        latencies.push(performance.now() - dueAt);
        if (!ok) errors++;
        inflight.delete(p);
      });
      inflight.add(p);
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(inflight);
  return stats(latencies, errors, (performance.now() - start) / 1000);
}
