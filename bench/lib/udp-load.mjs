// UDP load for bench/gateway.mjs, in its own process: one SOCKS5 UDP ASSOCIATE (username/password) through `via`,
// then `window` datagrams of `size` bytes kept in flight to a UDP echo `target` for `seconds`; prints one JSON line:
// datagrams echoed per second and how many were lost (sent, never answered).
import dgram from 'node:dgram';
import net from 'node:net';

const { via, target, seconds, window, size } = JSON.parse(process.argv[2]);

const control = net.connect({ host: via.host, port: via.port });
control.on('error', (err) => { console.error(String(err)); process.exit(1); });
const read = (n) => new Promise((resolve) => {
  let buf = Buffer.alloc(0);
  const onData = (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    if (buf.length >= n) { control.removeListener('data', onData); resolve(buf); }
  };
  control.on('data', onData);
});
await new Promise((r) => control.once('connect', r));
control.write(Buffer.from([5, 1, 2]));
await read(2);
control.write(Buffer.concat([Buffer.from([1, via.user.length]), Buffer.from(via.user), Buffer.from([via.pass.length]), Buffer.from(via.pass)]));
await read(2);
control.write(Buffer.from([5, 3, 0, 1, 0, 0, 0, 0, 0, 0]));
const reply = await read(10);
if (reply[1] !== 0) { console.error(`UDP ASSOCIATE refused: ${reply[1]}`); process.exit(1); }
const relay = { address: [...reply.subarray(4, 8)].join('.'), port: reply.readUInt16BE(8) };

const header = Buffer.from([0, 0, 0, 1, ...target.host.split('.').map(Number), target.port >> 8, target.port & 0xff]);
const datagram = Buffer.concat([header, Buffer.alloc(size, 0x75)]);
const socket = dgram.createSocket('udp4');
await new Promise((r) => socket.bind(0, '127.0.0.1', r));
let sent = 0;
let echoed = 0;
let running = true;
const send = () => { sent++; socket.send(datagram, relay.port, relay.address); };
socket.on('message', () => { echoed++; if (running) send(); });
const t0 = performance.now();
for (let i = 0; i < window; i++) send();
// A lost datagram shrinks the window: top it up every 50 ms.
const topUp = setInterval(() => { for (let i = sent - echoed; i < window; i++) send(); }, 50);
await new Promise((r) => setTimeout(r, seconds * 1000));
running = false;
clearInterval(topUp);
const elapsed = (performance.now() - t0) / 1000;
await new Promise((r) => setTimeout(r, 200));
process.stdout.write(`${JSON.stringify({ perSecond: echoed / elapsed, sent, echoed, lost: sent - echoed })}\n`);
socket.close();
control.destroy();
process.exit(0);
