// The load generator of bench/proxy.mjs, one process per job so it never shares an event loop with a proxy or the
// origin. argv[2] is a JSON job; the result is one JSON line on stdout.
//   { mode: 'tunnels', via, target, seconds, concurrency }
//       New tunnels per second: each of `concurrency` loops opens a tunnel, sends 16 bytes, waits for them to come
//       back and for the target to close (the echo target ends after one echo), then opens the next.
//   { mode: 'bulk', via, target, direction: 'down' | 'up', bytes }
//       One tunnel; 'down' reads `bytes` from the source target, 'up' writes `bytes` to the sink target and waits for
//       its count. Timed from the open tunnel to the last byte (the handshake is not in it).
//   { mode: 'idle', vias: [via, ...], target, count, concurrency }
//       Opens `count` tunnels (round robin over vias), checks each with one echo, prints how many are open, then
//       holds them until stdin closes, and then has the target close them.
import { openTunnel, openTunnelAsync } from './proxy-client.mjs';

const job = JSON.parse(process.argv[2]);
const PAYLOAD = Buffer.from('cellport-bench-1'); // 16 bytes
/** Idle tunnels that closed while held. */
let closedEarly = 0;

const result = job.mode === 'tunnels' ? await tunnels(job) : job.mode === 'bulk' ? await bulk(job) : await idle(job);
process.stdout.write(`${JSON.stringify(result)}\n`);
if (job.mode !== 'idle') process.exit(0);

/** One tunnel: open, 16 bytes there and back, wait for the close. Calls done(err). */
function oneTunnel(via, target, timeoutMs, done) {
  let finished = false;
  let socket = null;
  const timer = setTimeout(() => finish(new Error('timeout')), timeoutMs);
  const finish = (err) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    if (err && socket) socket.destroy();
    done(err);
  };
  openTunnel(via, target, (err, s, leftover) => {
    if (err) return finish(err);
    if (finished) { s.destroy(); return; }
    socket = s;
    let got = leftover ? leftover.length : 0;
    s.on('data', (chunk) => { got += chunk.length; });
    s.on('error', finish);
    s.on('close', () => finish(got === PAYLOAD.length ? null : new Error(`echoed ${got} bytes`)));
    s.write(PAYLOAD);
  });
}

async function tunnels({ via, target, seconds, concurrency, timeoutMs = 5000 }) {
  const latencies = [];
  const errors = new Map();
  let errorCount = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(Array.from({ length: concurrency }, () => new Promise((resolve) => {
    const next = () => {
      if (performance.now() >= until) return resolve();
      const t0 = performance.now();
      oneTunnel(via, target, timeoutMs, (err) => {
        if (err) {
          errorCount++;
          const key = err.code ?? err.message;
          errors.set(key, (errors.get(key) ?? 0) + 1);
        } else {
          latencies.push(performance.now() - t0);
        }
        // Not recursion: the callback runs from socket events, so the stack stays flat.
        next();
      });
    };
    next();
  })));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return { ok: latencies.length, errors: errorCount, errorKinds: Object.fromEntries(errors), seconds: elapsed, perSecond: latencies.length / elapsed, p50: pct(0.5), p99: pct(0.99) };
}

async function bulk({ via, target, direction, bytes }) {
  const { socket, leftover } = await openTunnelAsync(via, target);
  const t0 = performance.now();
  if (direction === 'down') {
    let got = leftover ? leftover.length : 0;
    await new Promise((resolve, reject) => {
      socket.on('data', (chunk) => { got += chunk.length; });
      socket.on('end', resolve);
      socket.on('error', reject);
      socket.write('g');
    });
    const seconds = (performance.now() - t0) / 1000;
    socket.destroy();
    if (got !== bytes) throw new Error(`received ${got} of ${bytes} bytes`);
    return { bytes: got, seconds, mbPerSecond: got / 1e6 / seconds };
  }
  const chunk = Buffer.alloc(256 * 1024, 0x63);
  const answer = await new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (s) => { text += s; });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
    let left = bytes;
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, chunk.length);
        left -= n;
        const ok = socket.write(n === chunk.length ? chunk : chunk.subarray(0, n));
        if (left === 0) { socket.end(); return; }
        if (!ok) { socket.once('drain', pump); return; }
      }
    };
    pump();
  });
  const seconds = (performance.now() - t0) / 1000;
  socket.destroy();
  if (Number(answer.trim()) !== bytes) throw new Error(`sink counted ${answer.trim()} of ${bytes} bytes`);
  return { bytes, seconds, mbPerSecond: bytes / 1e6 / seconds };
}

async function idle({ vias, target, count, concurrency = 200 }) {
  const sockets = [];
  const errors = new Map();
  let errorCount = 0;
  let k = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (k < count) {
      const via = vias[k++ % vias.length];
      try {
        const { socket, leftover } = await openTunnelAsync(via, target);
        await new Promise((resolve, reject) => {
          let got = leftover ? leftover.length : 0;
          const onData = (c) => {
            got += c.length;
            if (got >= PAYLOAD.length) { socket.removeListener('data', onData); socket.removeListener('error', reject); resolve(); }
          };
          socket.on('data', onData);
          socket.on('error', reject);
          socket.write(PAYLOAD);
        });
        socket.on('error', () => {});
        socket.on('close', () => { closedEarly++; });
        sockets.push(socket);
      } catch (err) {
        errorCount++;
        const key = err.code ?? err.message;
        errors.set(key, (errors.get(key) ?? 0) + 1);
      }
    }
  }));
  const openSeconds = (performance.now() - t0) / 1000;
  process.stdout.write(`${JSON.stringify({ opened: sockets.length, errors: errorCount, errorKinds: Object.fromEntries(errors), openSeconds })}\n`);
  await new Promise((resolve) => {
    process.stdin.resume();
    process.stdin.on('end', resolve);
  });
  const closedWhileHeld = closedEarly;
  const stillOpen = sockets.length - closedWhileHeld;
  // The target closes first ("bye!"), so neither this client's nor the proxy's egress ports sit in TIME_WAIT
  // afterwards (they would crowd a second run out of ephemeral ports); whatever has not closed in 10 s is destroyed.
  await Promise.all(sockets.map((s) => new Promise((resolve) => {
    if (s.destroyed) return resolve();
    const timer = setTimeout(() => s.destroy(), 10_000);
    s.once('close', () => { clearTimeout(timer); resolve(); });
    s.resume();
    s.write('bye!');
  })));
  return { closedEarly: closedWhileHeld, stillOpen };
}
