import type { Client } from 'pg';

/** Opens a new connection for LISTEN (a plain client, outside the request pool). */
export type ListenConnect = () => Promise<Client>;

const FIRST_RETRY_MS = 100;
/** At most this long between tries: the listener is back within a second or so of the database (issue 13). */
const MAX_RETRY_MS = 1_000;

export interface Listener {
  /** `onResync` runs after a lost connection is back: NOTIFYs sent in between were missed. */
  listen(channel: string, onPayload: (payload: string) => void, onResync?: () => void): Promise<() => Promise<void>>;
  close(): void;
}

/**
 * One connection of its own that LISTENs on every channel asked for, and comes back when it is lost (a PostgreSQL
 * restart, a failover, an idle timeout in a proxy): it reconnects with backoff, LISTENs again and tells each
 * subscriber to resynchronise, because whatever was announced in the gap is gone. Without this an instance's
 * in-memory versions and caches would stop moving until a restart — and an unhandled 'error' on the connection
 * would crash the process. It is not taken from the request pool: after an outage requests queue for the pool's
 * connections, and a listener queued behind them came back seconds late under load (the stress run, issue 19).
 */
export function pgListener(open: ListenConnect, log: (err: unknown, msg: string) => void = warn): Listener {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const resyncs = new Set<() => void>();
  let client: Client | undefined;
  let connecting: Promise<Client> | undefined;
  let closed = false;
  let retryMs = FIRST_RETRY_MS;

  async function connect(): Promise<Client> {
    const c = await open();
    c.on('notification', (msg) => handlers.get(msg.channel)?.forEach((h) => h(msg.payload ?? '')));
    c.on('error', (err) => lost(c, err));
    c.on('end', () => lost(c, new Error('listener connection ended')));
    try {
      for (const channel of handlers.keys()) await c.query(listenSql(channel));
    } catch (err) {
      void c.end().catch(() => {});
      throw err;
    }
    return c;
  }

  function ensure(): Promise<Client> {
    if (client) return Promise.resolve(client);
    connecting ??= connect().then((c) => { client = c; return c; }).finally(() => { connecting = undefined; });
    return connecting;
  }

  function lost(c: Client, err: unknown): void {
    if (client !== c) return;
    client = undefined;
    void c.end().catch(() => {});
    if (closed) return;
    log(err, 'LISTEN connection lost; reconnecting');
    reconnect();
  }

  function reconnect(): void {
    setTimeout(() => {
      if (closed) return;
      ensure().then(() => {
        retryMs = FIRST_RETRY_MS;
        for (const resync of resyncs) resync();
      }, (err: unknown) => {
        retryMs = Math.min(retryMs * 2, MAX_RETRY_MS);
        log(err, `LISTEN reconnect failed; next try in ${retryMs} ms`);
        reconnect();
      });
    }, retryMs).unref();
  }

  return {
    async listen(channel, onPayload, onResync) {
      let set = handlers.get(channel);
      const isNew = !set;
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
      }
      set.add(onPayload);
      if (onResync) resyncs.add(onResync);
      const c = await ensure();
      // LISTEN twice is harmless (a connection made just now already listens). If the connection dies meanwhile,
      // the reconnect LISTENs on every channel and resyncs.
      if (isNew) await c.query(listenSql(channel)).catch(() => {});
      return async () => {
        set.delete(onPayload);
        if (onResync) resyncs.delete(onResync);
      };
    },
    close() {
      closed = true;
      void client?.end().catch(() => {});
      client = undefined;
    },
  };
}

/** The database opens before the app's logger exists; a lost LISTEN connection is rare and worth a line. */
const warn = (err: unknown, msg: string) => process.emitWarning(`${msg}: ${err instanceof Error ? err.message : String(err)}`);

const listenSql = (channel: string) => `listen "${channel.replace(/"/g, '')}"`;
