import type { Settings } from 'node:http2';

// HTTP/2 settings of the gateway link, the same on both ends. Each stream may have 1 MiB in flight before its reader
// takes it (a 10 ms link at 800 Mbit/s), and the link as a whole 64 MiB, so one customer who stops reading holds at
// most 1 MiB of the link's window and the others keep flowing (bench/BENCHMARKS.md, "Gateway").

export const STREAM_WINDOW = 1024 * 1024;
export const LINK_WINDOW = 64 * 1024 * 1024;

export const LINK_SETTINGS: Settings = {
  initialWindowSize: STREAM_WINDOW,
  maxConcurrentStreams: 100_000,
  maxFrameSize: 64 * 1024,
  enablePush: false,
};

/** The link is pinged this often; a link that does not answer within LINK_PING_TIMEOUT_MS is closed (a dead NAT entry). */
export const LINK_PING_MS = 5_000;
export const LINK_PING_TIMEOUT_MS = 10_000;

/** Pings the session; closes it when a ping goes unanswered. Returns the stopper. */
export function keepAlive(session: { ping(cb: (err: Error | null) => void): boolean; destroy(err?: Error): void; closed: boolean }): () => void {
  const timer = setInterval(() => {
    if (session.closed) return;
    const deadline = setTimeout(() => session.destroy(new Error('the link stopped answering pings')), LINK_PING_TIMEOUT_MS).unref();
    try {
      session.ping(() => clearTimeout(deadline));
    } catch {
      clearTimeout(deadline);
    }
  }, LINK_PING_MS).unref();
  return () => clearInterval(timer);
}
