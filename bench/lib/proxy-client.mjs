// Client side of bench/proxy.mjs: opens a TCP tunnel to a target directly, through an HTTP proxy (CONNECT) or
// through a SOCKS5 proxy (RFC 1928 CONNECT, RFC 1929 username/password or no authentication). Every peer is driven
// by this same code, so ratios compare the proxies and not the clients. Each step waits for the proxy's answer (no
// pipelining), as curl and browsers do.
import net from 'node:net';

/**
 * @typedef {{ kind: 'direct' | 'connect' | 'socks', host?: string, port?: number, user?: string, pass?: string,
 *   localAddress?: string }} Via
 * `user` unset means no credentials (SOCKS offers only the no-authentication method, CONNECT sends no header).
 */

/**
 * Opens a tunnel to target { host, port } via `via`. Calls done(err, socket, leftover) once: leftover is any bytes
 * that arrived after the proxy's answer (target data), or null.
 */
export function openTunnel(via, target, done) {
  const direct = via.kind === 'direct';
  const socket = net.connect({
    host: direct ? target.host : via.host,
    port: direct ? target.port : via.port,
    localAddress: via.localAddress,
    noDelay: true,
  });
  let finished = false;
  const finish = (err, leftover = null) => {
    if (finished) return;
    finished = true;
    socket.removeListener('data', onData);
    socket.removeListener('error', onError);
    socket.removeListener('close', onClose);
    if (err) { socket.destroy(); done(err); } else done(null, socket, leftover);
  };
  const onError = (err) => finish(err);
  const onClose = () => finish(new Error('closed during the handshake'));
  socket.on('error', onError);
  socket.on('close', onClose);

  if (direct) {
    socket.once('connect', () => finish(null));
    return;
  }

  let buf = null;
  let stage = 0;
  function onData(chunk) {
    buf = buf ? Buffer.concat([buf, chunk]) : chunk;
    if (via.kind === 'connect') {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) {
        if (buf.length > 16384) finish(new Error('CONNECT answer too long'));
        return;
      }
      const status = buf.toString('latin1', 0, Math.min(end, 64)).split(' ')[1];
      if (status !== '200') return finish(new Error(`CONNECT answered ${status}`));
      finish(null, buf.length > end + 4 ? buf.subarray(end + 4) : null);
      return;
    }
    // SOCKS5
    for (;;) {
      if (stage === 0) { // method selection
        if (buf.length < 2) return;
        if (buf[0] !== 5) return finish(new Error(`SOCKS version ${buf[0]}`));
        const method = buf[1];
        buf = buf.subarray(2);
        if (method === 2 && via.user !== undefined) {
          const u = Buffer.from(via.user);
          const p = Buffer.from(via.pass ?? '');
          socket.write(Buffer.concat([Buffer.from([1, u.length]), u, Buffer.from([p.length]), p]));
          stage = 1;
        } else if (method === 0) {
          socket.write(socksRequest(target));
          stage = 2;
        } else {
          return finish(new Error(`SOCKS method ${method}`));
        }
      } else if (stage === 1) { // auth status
        if (buf.length < 2) return;
        if (buf[1] !== 0) return finish(new Error(`SOCKS auth status ${buf[1]}`));
        buf = buf.subarray(2);
        socket.write(socksRequest(target));
        stage = 2;
      } else { // reply: VER REP RSV ATYP BND.ADDR BND.PORT
        if (buf.length < 5) return;
        if (buf[1] !== 0) return finish(new Error(`SOCKS reply ${buf[1]}`));
        const atyp = buf[3];
        const len = 4 + (atyp === 1 ? 4 : atyp === 4 ? 16 : 1 + buf[4]) + 2;
        if (buf.length < len) return;
        return finish(null, buf.length > len ? buf.subarray(len) : null);
      }
    }
  }
  socket.on('data', onData);
  socket.once('connect', () => {
    if (via.kind === 'connect') {
      const hostPort = `${target.host}:${target.port}`;
      const auth = via.user !== undefined ? `Proxy-Authorization: Basic ${Buffer.from(`${via.user}:${via.pass}`).toString('base64')}\r\n` : '';
      socket.write(`CONNECT ${hostPort} HTTP/1.1\r\nHost: ${hostPort}\r\n${auth}\r\n`);
    } else {
      socket.write(via.user !== undefined ? Buffer.from([5, 1, 2]) : Buffer.from([5, 1, 0]));
    }
  });
}

function socksRequest(target) {
  const req = Buffer.alloc(10);
  req[0] = 5; req[1] = 1; req[2] = 0; req[3] = 1;
  const parts = target.host.split('.').map(Number);
  for (let i = 0; i < 4; i++) req[4 + i] = parts[i];
  req.writeUInt16BE(target.port, 8);
  return req;
}

export function openTunnelAsync(via, target) {
  return new Promise((resolve, reject) => openTunnel(via, target, (err, socket, leftover) => (err ? reject(err) : resolve({ socket, leftover }))));
}
