// Where our proxy's CPU time goes, from a V8 CPU profile of the bench's proxy process:
//   BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' BENCH_ONLY=tunnels node bench/proxy.mjs
//   node bench/lib/proxy-profile.mjs /tmp/prof/*.cpuprofile [top=30]
// Prints self time by function (with file:line) and by area (our proxy files, node:http, node:net, streams, GC,
// the kernel side of I/O that shows as "(program)"), each as a share of the non-idle samples.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

const files = process.argv.slice(2).filter((a) => a.endsWith('.cpuprofile'));
/** Source maps of bundled scripts, by URL (null: none). */
const maps = new Map();
const top = Number(process.argv.slice(2).find((a) => a.startsWith('top='))?.slice(4) ?? 30);

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  // A bundled script (bench/proxy.mjs runs ours from an esbuild bundle) is mapped back to its sources.
  for (const n of profile.nodes) n.callFrame = original(n.callFrame);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map();
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 0));
  }
  let total = 0;
  let idle = 0;
  const byFunction = new Map();
  const byArea = new Map();
  const inclusive = new Map();
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    const cf = node.callFrame;
    if (cf.functionName === '(idle)') { idle += us; continue; }
    total += us;
    const key = `${cf.functionName || '(anonymous)'} ${shortUrl(cf.url)}${cf.url ? `:${cf.lineNumber + 1}` : ''}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    const area = areaOf(cf);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
    // Inclusive time of our own proxy functions: each sample counts once per distinct function on its stack.
    const seen = new Set();
    for (let p = id; p !== undefined; p = parent.get(p)) {
      const f = byId.get(p).callFrame;
      if (!/agent\/src\/proxy\//.test(f.url)) continue;
      const k = `${f.functionName || '(anonymous)'} ${shortUrl(f.url)}:${f.lineNumber + 1}`;
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + us);
    }
  }
  const pct = (us) => `${((us / total) * 100).toFixed(1)} %`;
  console.log(`\n${file}: ${(total / 1e6).toFixed(2)} s busy, ${(idle / 1e6).toFixed(2)} s idle`);
  console.log('\nby area (self time):');
  for (const [k, us] of [...byArea].sort((a, b) => b[1] - a[1])) console.log(`  ${pct(us).padStart(7)}  ${k}`);
  console.log(`\ntop ${top} functions (self time):`);
  for (const [k, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us).padStart(7)}  ${k}`);
  console.log('\nour proxy functions (inclusive time):');
  for (const [k, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us).padStart(7)}  ${k}`);
}

function original(cf) {
  if (!cf.url.startsWith('file://') || cf.lineNumber < 0) return cf;
  let map = maps.get(cf.url);
  if (map === undefined) {
    const path = `${fileURLToPath(cf.url)}.map`;
    map = existsSync(path) ? new SourceMap(JSON.parse(readFileSync(path, 'utf8'))) : null;
    maps.set(cf.url, map);
  }
  const entry = map?.findEntry(cf.lineNumber, cf.columnNumber);
  if (!entry?.originalSource) return cf;
  return { ...cf, url: entry.originalSource, lineNumber: entry.originalLine, columnNumber: entry.originalColumn };
}

function shortUrl(url) {
  if (!url) return '';
  const m = /apps\/agent\/src\/.*$/.exec(url);
  if (m) return m[0];
  return url.replace(/^file:\/\/.*\/(?=[^/]+$)/, '');
}

function areaOf(cf) {
  const { url, functionName } = cf;
  if (functionName === '(garbage collector)') return 'garbage collector';
  if (functionName === '(program)') return '(program): native code outside JS (libuv, syscalls, V8 runtime)';
  if (/agent\/src\/proxy\//.test(url)) return 'our proxy (apps/agent/src/proxy)';
  if (/^node:_http|^node:http/.test(url)) return 'node:http (server, client, agent)';
  if (/^node:net|^node:internal\/stream_base|^node:internal\/net/.test(url)) return 'node:net';
  if (/^node:internal\/streams|^node:stream/.test(url)) return 'node:stream';
  if (/^node:internal\/(timers|process\/task_queues)|^node:timers/.test(url)) return 'timers and microtasks';
  if (/^node:events|^node:internal\/event_target/.test(url)) return 'events';
  if (/^node:internal\/dns|^node:dns/.test(url)) return 'node:dns';
  if (/^node:/.test(url)) return `other node: (${url.split('/').slice(0, 3).join('/')})`;
  if (url) return `other JS (${shortUrl(url)})`;
  return `native/builtin (${functionName})`;
}
