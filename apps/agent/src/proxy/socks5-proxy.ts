import { createServer, isIPv4 } from 'node:net';
import type { Server, Socket } from 'node:net';
import {
  destroySelf, kConn, SOCKS_AUTH, SOCKS_CONNECTING, SOCKS_GREETING, SOCKS_REQUEST, UpstreamError,
} from './connection.js';
import { encodeAddress } from './socks5-udp.js';
import type { ClientConnection, ProxyCore, TrackedSocket, UpstreamFailure } from './connection.js';
import type { RelayAddress } from './udp-client-channel.js';

// The SOCKS5 listener (RFC 1928 CONNECT and UDP ASSOCIATE, RFC 1929 username/password). The handshake is parsed
// straight from the socket's chunks; only a message split across chunks is buffered, and no message can exceed 513
// bytes, so a client sending more than that without completing one is cut. Anything malformed closes the socket.
// A UDP ASSOCIATE's relay lives in udp-association.ts; here its control connection is answered and then held open.

const VERSION = 5;
const CMD_CONNECT = 0x01;
const CMD_UDP_ASSOCIATE = 0x03;
const METHOD_NONE = 0x00;
const METHOD_PASSWORD = 0x02;
const NO_ACCEPTABLE = Buffer.from([VERSION, 0xff]);
const CHOSE_NONE = Buffer.from([VERSION, METHOD_NONE]);
const CHOSE_PASSWORD = Buffer.from([VERSION, METHOD_PASSWORD]);
const AUTH_OK = Buffer.from([0x01, 0x00]);
const AUTH_FAILED = Buffer.from([0x01, 0x01]);

export const REP_GENERAL_FAILURE = 0x01;
export const REP_NOT_ALLOWED = 0x02;
export const REP_HOST_UNREACHABLE = 0x04;
export const REP_CONNECTION_REFUSED = 0x05;
export const REP_COMMAND_NOT_SUPPORTED = 0x07;
export const REP_ADDRESS_TYPE_NOT_SUPPORTED = 0x08;

const FAILURE_REPLY: Record<UpstreamFailure, number> = {
  refused: REP_NOT_ALLOWED,
  unresolvable: REP_HOST_UNREACHABLE,
  family: REP_ADDRESS_TYPE_NOT_SUPPORTED,
  unreachable: REP_HOST_UNREACHABLE,
  'connection-refused': REP_CONNECTION_REFUSED,
  timeout: REP_HOST_UNREACHABLE,
  rotating: REP_GENERAL_FAILURE,
  fingerprint: REP_GENERAL_FAILURE,
  failed: REP_GENERAL_FAILURE,
};

/** Failure replies carry BND.ADDR 0.0.0.0:0. */
const failureReplies = new Map<number, Buffer>();
function failureReply(code: number): Buffer {
  let buf = failureReplies.get(code);
  if (!buf) failureReplies.set(code, (buf = Buffer.from([VERSION, code, 0, 1, 0, 0, 0, 0, 0, 0])));
  return buf;
}

/** The longest handshake message: RFC 1929 with a 255-byte name and password. */
const MAX_MESSAGE = 513;

/** Answers and half-closes; the client's own close (or the handshake timeout) then ends the socket. */
function refuse(socket: Socket, message: Buffer): void {
  socket.removeListener('data', onData);
  socket.end(message);
  socket.resume(); // discard whatever else it sends, and see its FIN
}

function onData(this: TrackedSocket, chunk: Buffer): void {
  const conn = this[kConn]!;
  // The socket's timeout is an idle timeout; a byte now and then must not keep a handshake open for ever.
  if (Date.now() - conn.acceptedAt > conn.core.limits.handshakeTimeoutMs) {
    this.destroy();
    return;
  }
  let buf = conn.pending === null ? chunk : Buffer.concat([conn.pending, chunk]);
  conn.pending = null;
  for (;;) {
    const used = step(conn, buf);
    if (used < 0) return; // refused, connecting, or destroyed
    if (used === 0) {
      if (buf.length > MAX_MESSAGE) this.destroy();
      else conn.pending = buf;
      return;
    }
    buf = buf.subarray(used);
    if (buf.length === 0) return;
  }
}

/** Handles one message at the start of buf: bytes used, 0 when incomplete, -1 when reading stops. */
function step(conn: ClientConnection, buf: Buffer): number {
  const socket = conn.socket;
  switch (conn.stage) {
    case SOCKS_GREETING: {
      if (buf[0] !== VERSION) return destroy(socket);
      if (buf.length < 2) return 0;
      const n = buf[1]!;
      if (buf.length < 2 + n) return 0;
      let password = false;
      let none = false;
      for (let i = 2; i < 2 + n; i++) {
        if (buf[i] === METHOD_PASSWORD) password = true;
        else if (buf[i] === METHOD_NONE) none = true;
      }
      // Credentials first when offered; no-authentication only for a whitelisted client address.
      if (password) {
        socket.write(CHOSE_PASSWORD);
        conn.stage = SOCKS_AUTH;
      } else if (none && conn.core.identify(conn, null, null) === 'ok') { // without credentials: the whitelist alone
        socket.write(CHOSE_NONE);
        conn.stage = SOCKS_REQUEST;
      } else {
        if (!none) conn.core.counters.refuse('bad_request'); // no method we take (identify counted a whitelist miss)
        refuse(socket, NO_ACCEPTABLE);
        return -1;
      }
      return 2 + n;
    }
    case SOCKS_AUTH: {
      if (buf[0] !== 0x01) return destroy(socket);
      if (buf.length < 2) return 0;
      const ulen = buf[1]!;
      if (buf.length < 3 + ulen) return 0;
      const plen = buf[2 + ulen]!;
      const end = 3 + ulen + plen;
      if (buf.length < end) return 0;
      const login = buf.toString('utf8', 2, 2 + ulen);
      const password = buf.toString('utf8', 3 + ulen, end);
      // A wrong password, or one from a client blocked for guessing (auth-guard.ts): the same failure, then close.
      if (ulen === 0 || plen === 0 || conn.core.identify(conn, login, password) !== 'ok') {
        if (ulen === 0 || plen === 0) conn.core.counters.refuse('auth'); // identify counts its own
        refuse(socket, AUTH_FAILED);
        return -1;
      }
      socket.write(AUTH_OK);
      conn.stage = SOCKS_REQUEST;
      return end;
    }
    case SOCKS_REQUEST: {
      if (buf[0] !== VERSION) return destroy(socket);
      if (buf.length < 5) return 0;
      const cmd = buf[1]!;
      const atyp = buf[3]!;
      const end = atyp === 1 ? 10 : atyp === 4 ? 22 : atyp === 3 ? 7 + buf[4]! : -1;
      if (end < 0) {
        conn.core.counters.refuse('bad_request');
        refuse(socket, failureReply(REP_ADDRESS_TYPE_NOT_SUPPORTED));
        return -1;
      }
      if (buf.length < end) return 0;
      if (cmd === CMD_UDP_ASSOCIATE) {
        // DST.ADDR and DST.PORT name where the client will send from, often 0.0.0.0:0 (not known yet); the relay
        // takes datagrams from this connection's peer address only, and learns the port from the first one.
        socket.removeListener('data', onData);
        conn.stage = SOCKS_CONNECTING;
        associate(conn);
        return -1;
      }
      if (cmd !== CMD_CONNECT) {
        conn.core.counters.refuse('bad_request');
        refuse(socket, failureReply(REP_COMMAND_NOT_SUPPORTED));
        return -1;
      }
      const host = atyp === 1 ? `${buf[4]}.${buf[5]}.${buf[6]}.${buf[7]}`
        : atyp === 4 ? ipv6(buf) : buf.toString('utf8', 5, end - 2);
      const port = buf.readUInt16BE(end - 2);
      if (host === '' || port === 0) {
        conn.core.counters.refuse('bad_request');
        refuse(socket, failureReply(REP_HOST_UNREACHABLE));
        return -1;
      }
      // Stop reading: bytes the client sends before our reply wait in the socket (and any read past the request
      // are put back) until the tunnel is piped.
      socket.removeListener('data', onData);
      socket.pause();
      if (buf.length > end) conn.pending = buf.subarray(end);
      conn.stage = SOCKS_CONNECTING;
      connect(conn, host, port);
      return -1;
    }
    default:
      return destroy(socket);
  }
}

function destroy(socket: Socket): -1 {
  socket.destroy();
  return -1;
}

function ipv6(buf: Buffer): string {
  let out = '';
  for (let i = 4; i < 20; i += 2) out += (i === 4 ? '' : ':') + buf.readUInt16BE(i).toString(16);
  return out;
}

function connect(conn: ClientConnection, host: string, port: number): void {
  const admission = conn.core.admit(conn);
  if (admission !== 'ok') {
    // An inactive port, or one over its connection limit: both are this proxy's ruleset saying no.
    refuse(conn.socket, failureReply(REP_NOT_ALLOWED));
    return;
  }
  conn.core.connectTarget(conn, host, port).then(
    (upstream) => startTunnel(conn, upstream),
    (err: unknown) => {
      const failure = err instanceof UpstreamError ? err.failure : 'failed';
      if (conn.socket.destroyed) return;
      conn.core.counters.upstreamFailed(failure);
      refuse(conn.socket, failureReply(FAILURE_REPLY[failure]));
    },
  );
}

function associate(conn: ClientConnection): void {
  // The association is one of the port's connections, admitted (and refused) as a CONNECT is.
  if (conn.core.admit(conn) !== 'ok') {
    refuse(conn.socket, failureReply(REP_NOT_ALLOWED));
    return;
  }
  // A relay that cannot be opened, or whose address cannot be put in a reply: general failure (the client's close
  // then closes whatever was opened).
  conn.core.associateUdp(conn).then((relay) => startAssociation(conn, relay)).catch(() => {
    if (conn.socket.destroyed) return;
    conn.core.counters.upstreamFailed('failed');
    refuse(conn.socket, failureReply(REP_GENERAL_FAILURE));
  });
}

/**
 * Replies with the relay's address and holds the control connection open: the association lasts as long as it does
 * (RFC 1928 §7), so its close (the client's, or a cut of the port) closes the relay, and the relay's own idle timeout
 * closes it. Anything the client sends on it is read and discarded, so its FIN is seen.
 */
function startAssociation(conn: ClientConnection, relay: RelayAddress): void {
  const socket = conn.socket;
  if (socket.destroyed) return;
  const reply = Buffer.concat([Buffer.from([VERSION, 0, 0]), encodeAddress(relay.address, relay.port)]);
  socket.setTimeout(0); // the relay's idle timeout (udpIdleTimeoutMs) governs, counting datagrams either way
  socket.write(reply);
  conn.pending = null;
  socket.resume();
}

function successReply(upstream: Socket): Buffer {
  const address = upstream.localAddress ?? '0.0.0.0';
  const port = upstream.localPort ?? 0;
  const reply = Buffer.from([VERSION, 0, 0, 1, 0, 0, 0, 0, port >> 8, port & 0xff]);
  // An IPv6 source is reported as 0.0.0.0 (clients do not use BND.ADDR of a CONNECT).
  if (isIPv4(address)) {
    const parts = address.split('.');
    for (let i = 0; i < 4; i++) reply[4 + i] = Number(parts[i]);
  }
  return reply;
}

function startTunnel(conn: ClientConnection, upstream: Socket): void {
  const socket = conn.socket;
  if (socket.destroyed) {
    upstream.destroy();
    return;
  }
  socket.removeListener('end', destroySelf);
  socket.setTimeout(conn.core.limits.idleTimeoutMs);
  socket.write(successReply(upstream));
  if (conn.pending !== null) {
    socket.unshift(conn.pending);
    conn.pending = null;
  }
  conn.core.relayTunnel(conn, upstream);
}

function onConnection(core: ProxyCore, socket: Socket): void {
  core.accept(socket, 'socks5');
  socket.setTimeout(core.limits.handshakeTimeoutMs);
  socket.on('timeout', destroySelf);
  // A client that hangs up mid-handshake is gone (the socket is half-open for the tunnel's sake only).
  socket.on('end', destroySelf);
  socket.on('data', onData);
}

/** The SOCKS5 server of one modem; the caller listens and closes it. */
export function createSocksServer(core: ProxyCore): Server {
  // allowHalfOpen: in a tunnel, a client that shuts down its sending side still receives the rest of the answer.
  return createServer({ allowHalfOpen: true, noDelay: true }, (socket) => onConnection(core, socket));
}
