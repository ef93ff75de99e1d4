// bench/fingerprint.mjs's load, run inside the agent's namespace: through the HTTP proxy port of one preset's port
// (login fp-<preset>), either new tunnels per second (CONNECT to the target's echo, 16 bytes there and back, close;
// `concurrency` loops for `seconds`) or one bulk download (CONNECT to the target's source, read `bytes`). Prints one
// JSON line: { ok, errors, perSecond } or { bytes, seconds }.
import { connect } from 'node:net';

const [mode, proxyPort, preset, target, targetPort, amount, concurrency] = process.argv.slice(2);
const auth = `Basic ${Buffer.from(`fp-${preset}:bench-secret-1`).toString('base64')}`;

function tunnel() {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(proxyPort) });
    let head = '';
    let open = false;
    socket.setNoDelay(true);
    socket.on('error', reject);
    socket.on('connect', () => socket.write(`CONNECT ${target}:${targetPort} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: ${auth}\r\n\r\n`));
    socket.on('data', function onData(chunk) {
      if (open) return;
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      open = true;
      socket.removeListener('data', onData);
      if (!head.startsWith('HTTP/1.1 200')) {
        socket.destroy();
        reject(new Error(head.split('\r\n')[0]));
        return;
      }
      const rest = Buffer.from(head.slice(end + 4), 'latin1');
      resolve({ socket, rest });
    });
  });
}

if (mode === 'tunnels') {
  const deadline = Date.now() + Number(amount) * 1000;
  let ok = 0;
  let errors = 0;
  const payload = Buffer.alloc(16, 'x');
  const loop = async () => {
    while (Date.now() < deadline) {
      try {
        const { socket, rest } = await tunnel();
        let got = rest.length;
        await new Promise((resolve, reject) => {
          socket.on('data', (d) => { got += d.length; if (got >= 16) socket.end(); });
          socket.on('close', () => (got >= 16 ? resolve() : reject(new Error('short echo'))));
          socket.write(payload);
        });
        ok++;
      } catch {
        errors++;
      }
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: Number(concurrency) }, loop));
  console.log(JSON.stringify({ ok, errors, perSecond: ok / ((Date.now() - started) / 1000) }));
} else {
  const started = process.hrtime.bigint();
  const { socket, rest } = await tunnel();
  let got = rest.length;
  const want = Number(amount);
  await new Promise((resolve, reject) => {
    socket.on('data', (d) => { got += d.length; });
    socket.on('end', resolve);
    socket.on('error', reject);
    socket.write(`${want}\n`);
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(JSON.stringify({ bytes: got, seconds, ok: got === want }));
}
