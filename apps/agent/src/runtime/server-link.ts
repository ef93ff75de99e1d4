import { io, type Socket } from 'socket.io-client';
import { HOST_KEY_REFUSED, HOST_PROTOCOL } from '@cellport/shared/schemas/host-protocol';
import type { Logger } from '../proxy/types.js';

/** How long to wait before trying a refused key again (an operator may have re-issued it by mistake and undo it). */
const REFUSED_RETRY_MS = 60_000;

/**
 * The agent's one connection to the server (docs/decisions/016-host-protocol.md): socket.io over WebSocket, which
 * reconnects by itself with exponential backoff and jitter (1 s to 30 s). A refused key is logged as such, naming
 * the setting, and tried again slowly.
 */
export function connectToServer(serverUrl: string, key: string, log: Logger): Socket {
  const url = new URL(serverUrl);
  const socket = io(url.origin, {
    path: HOST_PROTOCOL.path,
    auth: { key },
    transports: ['websocket'],
    reconnectionDelay: 1000,
    reconnectionDelayMax: 30_000,
    randomizationFactor: 0.5,
  });
  let reported = '';
  socket.on('connect', () => {
    reported = '';
    log.info({ server: url.origin }, 'connected to the server');
  });
  socket.on('disconnect', (reason) => {
    log.warn({ reason }, 'disconnected from the server: serving the last state, reconnecting');
    // A server that shuts down (a restart, an upgrade) closes its sockets itself, and socket.io leaves reconnecting
    // after that to us: try again after a second or two, spread so a farm of agents does not arrive at once.
    if (reason === 'io server disconnect') setTimeout(() => { if (!socket.connected) socket.connect(); }, 1000 + Math.random() * 1000).unref();
  });
  socket.on('connect_error', (err) => {
    const refused = err.message === HOST_KEY_REFUSED;
    const message = refused
      ? 'the server refused CELLPORT_HOST_KEY: issue a new key for this host in the console and restart the agent'
      : `cannot reach CELLPORT_SERVER_URL (${url.origin}): serving the last state, retrying`;
    // One line per kind of failure, not one per retry.
    if (message !== reported && refused) log.error({ error: err.message }, message);
    else if (message !== reported) log.warn({ error: err.message }, message);
    reported = message;
    // socket.io does not retry a handshake the server refused; do it slowly ourselves.
    if (refused && !socket.active) setTimeout(() => { if (!socket.connected) socket.connect(); }, REFUSED_RETRY_MS).unref();
  });
  return socket;
}
