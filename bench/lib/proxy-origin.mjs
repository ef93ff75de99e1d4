// The targets of bench/proxy.mjs, in their own process so the load generator and the proxies do not share its event
// loop. Listens on 127.0.0.1 (ephemeral ports) and prints one JSON line with the ports:
//   http    GET /1k answers 1,024 bytes (keep-alive); anything else 404.
//   source  sends BULK bytes (argv[2]) as soon as a connection opens, then ends.
//   sink    reads until the client ends, then answers the byte count as text and ends.
//   echo    echoes the first chunk it reads, then ends (the server closes first, so TIME_WAIT stays on the server
//           side and a tunnels-per-second run does not use up ephemeral ports on the client or the proxy).
//   hold    echoes everything and never closes (idle tunnels) until it reads "bye!", then ends.
// Exits when stdin closes.
import http from 'node:http';
import net from 'node:net';

const BULK = Number(process.argv[2] ?? 1 << 30);
const CHUNK = Buffer.alloc(256 * 1024, 0x61);
const ONE_K = Buffer.alloc(1024, 0x62);

function listen(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0, backlog: 4096 }, () => resolve(server.address().port));
  });
}

const httpServer = http.createServer((req, res) => {
  if (req.url === '/1k' || req.url.endsWith('/1k')) {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': ONE_K.length });
    res.end(ONE_K);
  } else {
    res.writeHead(404, { 'content-length': 0 });
    res.end();
  }
});
httpServer.keepAliveTimeout = 60_000;
httpServer.headersTimeout = 65_000;

const source = net.createServer((socket) => {
  socket.on('error', () => socket.destroy());
  let left = BULK;
  const pump = () => {
    while (left > 0) {
      const n = Math.min(left, CHUNK.length);
      left -= n;
      const ok = socket.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n));
      if (left === 0) { socket.end(); return; }
      if (!ok) { socket.once('drain', pump); return; }
    }
  };
  // Wait for the client's first byte: through a proxy, the tunnel is ready when the client says so.
  socket.once('data', pump);
  socket.resume();
});

const sink = net.createServer((socket) => {
  socket.on('error', () => socket.destroy());
  let n = 0;
  socket.on('data', (chunk) => { n += chunk.length; });
  socket.on('end', () => socket.end(`${n}\n`));
});

const echo = net.createServer({ noDelay: true }, (socket) => {
  socket.on('error', () => socket.destroy());
  socket.once('data', (chunk) => socket.end(chunk));
});

const BYE = Buffer.from('bye!');
const hold = net.createServer({ noDelay: true }, (socket) => {
  socket.on('error', () => socket.destroy());
  // "bye!" asks the server to close first, so TIME_WAIT stays on the server side (see the idle load job).
  socket.on('data', (chunk) => (chunk.includes(BYE) ? socket.end() : socket.write(chunk)));
});

const ports = {
  http: await listen(httpServer),
  source: await listen(source),
  sink: await listen(sink),
  echo: await listen(echo),
  hold: await listen(hold),
};
process.stdout.write(`${JSON.stringify({ ready: true, pid: process.pid, ...ports })}\n`);
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
