import { io, type Socket } from 'socket.io-client';
import { HOST_KEY_REFUSED, HOST_PROTOCOL } from '@cellport/shared/schemas/host-protocol';
import type { Logger } from '../proxy/types.js';

/**
 * A refused key is tried again after this long, doubling up to REFUSED_RETRY_MAX_MS (an operator may have re-issued
 * it by mistake and undo it, or restored the server's database).
 */
const REFUSED_RETRY_FIRST_MS = 5_000;
const REFUSED_RETRY_MAX_MS = 300_000;

/**
 * The agent's one connection to the server (docs/decisions/016-host-protocol.md): socket.io over WebSocket, which
 * reconnects by itself with exponential backoff and jitter (1 s to 30 s). A refused key is logged as such, naming
 * the setting, and tried again with backoff. Its timers hold the process: an agent with nothing to serve yet (a
 * wrong key and no state on disk) must keep trying, not exit 0 (issue 28, item 6). `signal` ends them (stop).
 * `hasState` tells whether there is a state to serve meanwhile, which the log lines say.
 */
export function connectToServer(serverUrl: string, key: string, log: Logger, signal?: AbortSignal, hasState: () => boolean = () => true): Socket {
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
  let retry: NodeJS.Timeout | undefined;
  let refusedDelay = REFUSED_RETRY_FIRST_MS;
  const connectIn = (ms: number) => {
    clearTimeout(retry);
    if (signal?.aborted) return;
    retry = setTimeout(() => { if (!socket.connected && !signal?.aborted) socket.connect(); }, ms);
  };
  signal?.addEventListener('abort', () => clearTimeout(retry), { once: true });
  socket.on('connect', () => {
    reported = '';
    refusedDelay = REFUSED_RETRY_FIRST_MS;
    log.info({ server: url.origin }, 'connected to the server');
  });
  // What the agent does meanwhile, as it is: a new agent has no state to serve (issue 28, item 11).
  const meanwhile = () => (hasState() ? 'serving the last state' : 'nothing to serve until the server first answers');
  socket.on('disconnect', (reason) => {
    log.warn({ reason }, `disconnected from the server: ${meanwhile()}, reconnecting`);
    // A server that shuts down (a restart, an upgrade) closes its sockets itself, and socket.io leaves reconnecting
    // after that to us: try again after a second or two, spread so a farm of agents does not arrive at once.
    if (reason === 'io server disconnect') connectIn(1000 + Math.random() * 1000);
  });
  socket.on('connect_error', (err) => {
    if (err.message === HOST_KEY_REFUSED) {
      // socket.io does not retry a handshake the server refused; do it ourselves, more slowly each time.
      log.error({ error: err.message, retryInSeconds: refusedDelay / 1000 },
        `the server refused CELLPORT_HOST_KEY: issue a new key for this host in the console and restart the agent; trying again in ${refusedDelay / 1000} s`);
      reported = '';
      if (!socket.active) connectIn(refusedDelay);
      refusedDelay = Math.min(refusedDelay * 2, REFUSED_RETRY_MAX_MS);
      return;
    }
    // One line per kind of failure, not one per retry (socket.io retries these itself).
    const message = `cannot reach CELLPORT_SERVER_URL (${url.origin}): ${meanwhile()}, retrying`;
    if (message !== reported) log.warn({ error: err.message }, message);
    reported = message;
  });
  return socket;
}
