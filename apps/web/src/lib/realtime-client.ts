// A socket.io client of the size the dashboard needs (issue 31, item 4: socket.io-client was 12.7 KB of gzip on every
// page). It speaks the socket.io v5 / engine.io v4 protocol the server's `socket.io` package serves, for what the
// dashboard does with it: one connection to this origin's default namespace, no reconnection (spec §4: retried only on
// page load), server → client events with JSON payloads. The handshake is an HTTP request that carries the token as a
// bearer header and as a query parameter (spec §5), then the connection upgrades to a WebSocket, as socket.io-client
// does. Binary payloads, acknowledgements, namespaces and long-polling after the handshake are not needed and not
// spoken; a server answer the client does not understand ends the connection with a `connect_error`.

type Handler = (payload?: unknown) => void;

export interface RealtimeClientOptions {
  /** The socket.io path on this origin, e.g. '/socket.io'. */
  path: string;
  token: string;
  /** Injection points for tests in Node; the browser's own by default. */
  origin?: string;
  fetch?: typeof fetch;
  WebSocket?: new (url: string) => WebSocket;
}

export interface RealtimeSocket {
  on(event: string, handler: Handler): RealtimeSocket;
  once(event: string, handler: Handler): RealtimeSocket;
  close(): void;
}

const RECORD_SEPARATOR = '\x1e';

export function openRealtimeSocket(options: RealtimeClientOptions): RealtimeSocket {
  const handlers = new Map<string, Set<Handler>>();
  let ws: WebSocket | null = null;
  let closed = false;
  let connected = false;

  const emit = (event: string, payload?: unknown) => {
    for (const handler of [...(handlers.get(event) ?? [])]) handler(payload);
  };
  const fail = (message: string) => {
    if (closed) return;
    const wasConnected = connected;
    socket.close();
    emit(wasConnected ? 'disconnect' : 'connect_error', wasConnected ? message : new Error(message));
  };

  const socket: RealtimeSocket = {
    on(event, handler) {
      handlers.set(event, (handlers.get(event) ?? new Set()).add(handler));
      return socket;
    },
    once(event, handler) {
      const wrapped: Handler = (payload) => { handlers.get(event)?.delete(wrapped); handler(payload); };
      return socket.on(event, wrapped);
    },
    close() {
      if (closed) return;
      closed = true;
      connected = false;
      // 41: leave the namespace; then the engine's close.
      if (ws?.readyState === 1) ws.send('41');
      ws?.close();
    },
  };

  void handshake(options).then((sid) => {
    if (closed) return;
    ws = upgrade(options, sid, {
      onOpen: () => ws?.send(`40${JSON.stringify({ token: options.token })}`),
      onPacket: (packet) => {
        if (packet === '2') return ws?.send('3'); // the server's ping
        if (packet.startsWith('40')) { connected = true; return emit('connect'); }
        if (packet.startsWith('44')) return fail(messageOf(packet.slice(2)));
        if (packet.startsWith('41') || packet === '1') return fail('io server disconnect');
        if (packet.startsWith('42')) {
          const event = parseEvent(packet.slice(2));
          if (event) emit(event[0], event[1]);
        }
      },
      onFailure: fail,
    });
  }, (error: unknown) => fail(error instanceof Error ? error.message : 'handshake error'));
  return socket;
}

/** The engine.io handshake over HTTP: returns the session id. */
async function handshake(options: RealtimeClientOptions): Promise<string> {
  const fetchFn = options.fetch ?? fetch;
  const query = new URLSearchParams({ EIO: '4', transport: 'polling', token: options.token });
  const response = await fetchFn(`${options.origin ?? ''}${options.path}/?${query}`, {
    headers: { Authorization: `Bearer ${options.token}` }, credentials: 'same-origin',
  });
  if (!response.ok) throw new Error('xhr poll error');
  const [open] = (await response.text()).split(RECORD_SEPARATOR);
  if (!open?.startsWith('0')) throw new Error('xhr poll error');
  const { sid } = JSON.parse(open.slice(1)) as { sid?: string };
  if (!sid) throw new Error('xhr poll error');
  return sid;
}

interface UpgradeHooks { onOpen(): void; onPacket(packet: string): void; onFailure(message: string): void }

/** The WebSocket upgrade of the session: probe, then upgrade; every later packet goes to the hooks. */
function upgrade(options: RealtimeClientOptions, sid: string, hooks: UpgradeHooks): WebSocket {
  const origin = options.origin ?? location.origin;
  const query = new URLSearchParams({ EIO: '4', transport: 'websocket', sid, token: options.token });
  const Socket = options.WebSocket ?? WebSocket;
  const ws = new Socket(`${origin.replace(/^http/, 'ws')}${options.path}/?${query}`);
  let upgraded = false;
  ws.onopen = () => ws.send('2probe');
  ws.onmessage = (message: MessageEvent) => {
    const packet = typeof message.data === 'string' ? message.data : '';
    if (!upgraded) {
      if (packet !== '3probe') return hooks.onFailure('websocket error');
      upgraded = true;
      ws.send('5');
      return hooks.onOpen();
    }
    hooks.onPacket(packet);
  };
  ws.onerror = () => hooks.onFailure('websocket error');
  ws.onclose = () => hooks.onFailure('transport close');
  return ws;
}

function messageOf(json: string): string {
  try {
    const { message } = JSON.parse(json) as { message?: unknown };
    return typeof message === 'string' ? message : 'connect error';
  } catch {
    return 'connect error';
  }
}

/** `["name", payload]`, after an optional acknowledgement id (digits) the dashboard does not answer. */
function parseEvent(body: string): [string, unknown] | null {
  try {
    const data = JSON.parse(body.replace(/^\d+/, '')) as unknown;
    return Array.isArray(data) && typeof data[0] === 'string' ? [data[0], data[1]] : null;
  } catch {
    return null;
  }
}
