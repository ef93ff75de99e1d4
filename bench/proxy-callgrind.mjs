// Instructions our proxy core executes per new tunnel, counted by valgrind's callgrind: a measure the machine's load
// does not change, for A/Bs of the proxy on a shared machine where rates and even CPU µs swing (bench/BENCHMARKS.md).
// The proxy (bench/lib/proxy-ours.ts bundled as bench/proxy.mjs does) runs under callgrind; a Node client outside it
// opens FEW and then, in a second run, MANY tunnels (4 at a time, each: CONNECT or SOCKS5 with login/password to an
// echo, 16 bytes there and back, close). Startup and the JIT's warm-up cancel out of (MANY − FEW) ÷ (MANY − FEW tunnels).
//
//   node bench/proxy-callgrind.mjs                          (the tree's apps/agent/src/proxy, HTTP CONNECT)
//   BENCH_BASELINE_DIR=/tmp/old/apps/agent/src/proxy node bench/proxy-callgrind.mjs   (also that copy: an A/B)
//   BENCH_KIND=http: instructions per plain 1 KB request instead (GET http://… through 4 keep-alive connections, as
//   wrk does in bench/proxy.mjs), the count for the forwarder of decision 048.
//   Knobs: BENCH_KIND (connect | socks | http, connect), BENCH_FEW (1000), BENCH_MANY (3000). A run of 3,000 tunnels takes
//   about 10 minutes on a quiet 2-core machine (valgrind runs the proxy some 50 times slower).
//   BENCH_NODE_ARGS='--single-threaded': V8 compiles and collects on the proxy's main thread only, so the counts
//   move less from run to run (its concurrent threads' share depends on timing).
//   BENCH_WINDOW=1: instructions counted in one proxy process only, between tunnel FEW and tunnel MANY, each end after
//   a full collection (callgrind_control zeroes, then dumps): start-up, warm-up and the timing of V8's background work
//   stay out, so the per-tunnel figure moves far less between runs than the difference of two processes' totals.
//   BENCH_COUNT=syscalls: system calls per tunnel instead (strace -c -f on the proxy; each kind of call is printed);
//   BENCH_COUNT=cpu: CPU µs per tunnel (user+system from /proc, no tracer; this one does move with the machine's load).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { openTunnelAsync } from './lib/proxy-client.mjs';
import { cpuSeconds } from './lib/proxy-procs.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROXY_DIR = join(ROOT, 'apps/agent/src/proxy/');
const KIND = process.env.BENCH_KIND ?? 'connect';
const FEW = Number(process.env.BENCH_FEW ?? 1000);
const MANY = Number(process.env.BENCH_MANY ?? 3000);
const BASELINE_DIR = process.env.BENCH_BASELINE_DIR;
const LOOPS = 4;
/** Proxy processes started so far (each writes files of its own). */
let runs = 0;
/** Node options for the proxy, e.g. --single-threaded (no concurrent compiler or GC threads: steadier counts). */
const WINDOW = process.env.BENCH_WINDOW === '1';
const NODE_ARGS = [...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), ...(WINDOW ? ['--expose-gc'] : [])];
if (WINDOW && process.env.BENCH_COUNT !== undefined && process.env.BENCH_COUNT !== 'instructions') throw new Error('BENCH_WINDOW=1 counts instructions');
const COUNT = process.env.BENCH_COUNT ?? 'instructions';
if (!['instructions', 'syscalls', 'cpu'].includes(COUNT)) throw new Error(`BENCH_COUNT=${COUNT}: instructions, syscalls or cpu`);
const USER = 'bench';
const PASS = 'bench-secret-1';

const dir = mkdtempSync(join(os.tmpdir(), 'cellport-proxy-callgrind-'));
try {
  const echo = net.createServer({ noDelay: true }, (s) => {
    s.on('error', () => s.destroy());
    s.once('data', (c) => s.end(c));
  });
  await new Promise((resolve) => echo.listen(0, '127.0.0.1', resolve));
  const KB = Buffer.alloc(1024, 'x');
  const origin = http.createServer((req, res) => res.end(KB)); // 1 KB with its Content-Length, kept alive
  origin.keepAliveTimeout = 600_000;
  await new Promise((resolve) => origin.listen(0, '127.0.0.1', resolve));
  const copies = [['ours', null], ...(BASELINE_DIR ? [['before', BASELINE_DIR]] : [])];
  console.log(`${COUNT === 'cpu' ? 'CPU µs' : COUNT} per ${KIND === 'http' ? 'plain 1 KB request' : `${KIND} tunnel`}, (${MANY} − ${FEW} ${KIND === 'http' ? 'requests' : 'tunnels'}), load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  for (const [name, from] of copies) {
    const bundle = join(dir, `${name}.mjs`);
    await bundleProxy(from, bundle);
    const target = KIND === 'http' ? origin.address().port : echo.address().port;
    if (WINDOW) {
      const within = await countWindow(bundle, target);
      console.log(`${name}: ${Math.round(within / (MANY - FEW)).toLocaleString('en-US')} (${within.toLocaleString('en-US')} over tunnels ${FEW} to ${MANY} of one process)`);
      continue;
    }
    const few = await count(bundle, FEW, target);
    const many = await count(bundle, MANY, target);
    const per = (a, b) => ((b - a) / (MANY - FEW)).toFixed(COUNT === 'instructions' ? 0 : 2);
    console.log(`${name}: ${Number(per(few.total, many.total)).toLocaleString('en-US')} (${FEW}: ${few.total.toLocaleString('en-US')}, ${MANY}: ${many.total.toLocaleString('en-US')})`);
    // Each kind of call per tunnel, those of start-up and close (less than one in a hundred tunnels) left out.
    for (const [call, n] of many.calls) if (Number(per(few.calls.get(call) ?? 0, n)) >= 0.01) console.log(`  ${call}: ${per(few.calls.get(call) ?? 0, n)}`);
  }
  echo.close();
  origin.close();
  origin.closeAllConnections();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** bench/lib/proxy-ours.ts bundled, its apps/agent/src/proxy read from `from` when given (as bench/proxy.mjs does). */
async function bundleProxy(from, outfile) {
  const plugins = from ? [{
    name: 'proxy-from',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => (args.path.startsWith(PROXY_DIR)
        ? { contents: readFileSync(join(from, args.path.slice(PROXY_DIR.length)), 'utf8'), loader: 'ts', resolveDir: PROXY_DIR }
        : undefined));
    },
  }] : [];
  await build({
    entryPoints: [join(ROOT, 'bench/lib/proxy-ours.ts')], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20',
    logLevel: 'warning', plugins,
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
}

/**
 * The proxy's instruction total (all its threads), system calls (and each kind's) or CPU µs over its whole life,
 * having carried `n` tunnels: { total, calls }.
 */
async function count(bundle, n, echoPort, window = null) {
  const [httpPort, socksPort] = [await freePort(), await freePort()];
  const options = {
    listenHost: '127.0.0.1', httpPort, socksPort, egress: '127.0.9.9', login: USER, password: PASS, whitelisted: '127.0.0.2',
    // Valgrind slows the proxy so much that a loaded machine could stall a handshake past the usual 10 s.
    limits: { maxConnectionsPerPort: 5000, handshakeTimeoutMs: 120_000 },
  };
  // One file per process: callgrind_control's dumps go to <out>.1, which a second copy's run must not find ready-made.
  const out = join(dir, `${COUNT}-${n}-${++runs}.out`);
  const proxy = [process.execPath, ...NODE_ARGS, bundle, JSON.stringify(options)];
  const command = COUNT === 'instructions' ? ['valgrind', '--tool=callgrind', `--callgrind-out-file=${out}`, ...proxy]
    : COUNT === 'syscalls' ? ['strace', '-c', '-f', '-o', out, ...proxy] : proxy;
  const child = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'ignore'] });
  const lines = createInterface({ input: child.stdout });
  await new Promise((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the proxy exited with ${code} before it was ready (is valgrind installed?)`)));
  });
  const via = { kind: KIND, host: '127.0.0.1', port: KIND === 'connect' ? httpPort : socksPort, user: USER, pass: PASS };
  let left = n;
  const requests = async () => {
    const socket = net.connect(httpPort, '127.0.0.1');
    const auth = `Basic ${Buffer.from(`${USER}:${PASS}`).toString('base64')}`;
    const request = `GET http://127.0.0.1:${echoPort}/1k HTTP/1.1\r\nHost: 127.0.0.1:${echoPort}\r\nProxy-Authorization: ${auth}\r\n\r\n`;
    let buf = Buffer.alloc(0);
    let answered = null;
    socket.on('data', (c) => {
      buf = Buffer.concat([buf, c]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(buf.toString('latin1', 0, end))?.[1] ?? NaN);
      if (buf.length < end + 4 + length) return;
      if (!buf.toString('latin1', 0, 12).startsWith('HTTP/1.1 200') || length !== 1024) throw new Error(`not a 1 KB answer: ${buf.toString('latin1', 0, end)}`);
      buf = buf.subarray(end + 4 + length);
      answered();
    });
    while (left-- > 0) {
      await new Promise((resolve) => {
        answered = resolve;
        socket.write(request);
      });
    }
    socket.destroy();
  };
  const loop = KIND === 'http' ? requests : async () => {
    while (left-- > 0) {
      const { socket, leftover } = await openTunnelAsync(via, { host: '127.0.0.1', port: echoPort });
      await new Promise((resolve, reject) => {
        let got = leftover ? leftover.length : 0;
        socket.on('data', (c) => { got += c.length; });
        socket.on('error', reject);
        socket.on('close', () => (got === 16 ? resolve() : reject(new Error(`the echo returned ${got} of 16 bytes`))));
        socket.end(Buffer.alloc(16, 1));
      });
    }
  };
  if (window !== null) {
    // The window: from a collection after FEW tunnels to one after MANY (the proxy's "stats gc" answers a line).
    left = FEW;
    await Promise.all(Array.from({ length: LOOPS }, loop));
    await collectGarbage(child, lines);
    await callgrindControl('-z', child.pid);
    left = MANY - FEW;
    await Promise.all(Array.from({ length: LOOPS }, loop));
    await collectGarbage(child, lines);
    await callgrindControl('-d', child.pid);
    window.total = totals(readFileSync(`${out}.1`, 'utf8'), `${out}.1`);
  } else {
    await Promise.all(Array.from({ length: LOOPS }, loop));
  }
  const cpu = COUNT === 'cpu' ? cpuSeconds(child.pid) * 1e6 : 0; // before close: the tunnels' work and start-up only
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.stdin.end(); // the proxy closes and exits; callgrind or strace then writes its totals
  await exited;
  if (COUNT === 'cpu') return { total: cpu, calls: new Map() };
  const text = readFileSync(out, 'utf8');
  if (COUNT === 'syscalls') return syscalls(text, out);
  return { total: totals(text, out), calls: new Map() };
}

function totals(text, file) {
  const found = /^totals: (\d+)/m.exec(text);
  if (!found) throw new Error(`no totals in ${file}`);
  return Number(found[1]);
}

/** Instructions the proxy runs within the window of countWindow's one process. */
async function countWindow(bundle, echoPort) {
  const window = { total: 0 };
  await count(bundle, MANY, echoPort, window);
  return window.total;
}

function collectGarbage(child, lines) {
  return new Promise((resolve) => {
    lines.once('line', resolve);
    child.stdin.write('stats gc\n');
  });
}

function callgrindControl(flag, pid) {
  return new Promise((resolve, reject) => {
    const control = spawn('callgrind_control', [flag, String(pid)], { stdio: 'ignore' });
    control.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`callgrind_control ${flag} exited with ${code}`))));
  });
}

/** strace -c's table: calls of each kind (and errors among them) and the total. */
function syscalls(text, out) {
  const calls = new Map();
  let total = null;
  for (const line of text.split('\n')) {
    // % time, seconds, usecs/call, calls, [errors,] syscall
    const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:(\d+)\s+)?(\S+)\s*$/.exec(line);
    if (m === null) continue;
    if (m[3] === 'total') total = Number(m[1]);
    else {
      calls.set(m[3], Number(m[1]));
      if (m[2]) calls.set(`${m[3]} (errors)`, Number(m[2]));
    }
  }
  if (total === null) throw new Error(`no totals in ${out}`);
  return { total, calls };
}

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}
