import { REALTIME_CONNECT_WAIT_MS } from '@cellport/shared/constants';
import type { RealtimeTokenResponse } from '@cellport/shared/schemas/realtime';
import { apiGet } from './api';
import { openRealtimeSocket, type RealtimeSocket } from './realtime-client';

type Open = (options: { path: string; token: string }) => RealtimeSocket;

export interface RealtimeOptions {
  /** The server → client events to forward to `onEvent`. */
  events: readonly string[];
  onEvent: (name: string, payload: unknown) => void;
  /** Injection points for tests; the defaults fetch GET /api/v1/token and open our own socket.io client. */
  fetchToken?: () => Promise<string>;
  open?: Open;
  log?: (...args: unknown[]) => void;
}

export type RealtimeOutcome = { ok: true; socket: RealtimeSocket } | { ok: false; error: string; socket: RealtimeSocket | null };

const defaultFetchToken = async () => (await apiGet<RealtimeTokenResponse>('/token')).token;
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Spec §4: the server's 'invalid_token' refusal is reported as 'Invalid token'; other errors as they come. */
export const describeConnectError = (message: string) => (message === 'invalid_token' ? 'Invalid token' : message);

/**
 * Spec §4/§6/§8 realtime connection: fetch a token, connect socket.io to this origin with the token as a bearer
 * header and as a query parameter, wait 300 ms, then report success or error. There is no reconnection: a lost
 * connection comes back on the next page load. Failures go to console.log only (spec §8), never console.error,
 * so a server without realtime does not look like a broken page.
 */
export async function connectRealtime(options: RealtimeOptions): Promise<RealtimeOutcome> {
  const log = options.log ?? ((...args: unknown[]) => console.log(...args));
  let token: string;
  try {
    token = await (options.fetchToken ?? defaultFetchToken)();
  } catch (error) {
    log('Realtime: could not get a token', error instanceof Error ? error.message : error);
    return { ok: false, error: 'token', socket: null };
  }
  // The handshake carries the token as a bearer header and a query parameter; the WebSocket after it, as a query
  // parameter (browsers send no headers there); the namespace connect, in its auth payload. No reconnection.
  const socket = (options.open ?? openRealtimeSocket)({ path: '/socket.io', token });
  for (const name of options.events) socket.on(name, (payload: unknown) => options.onEvent(name, payload));

  const settled = new Promise<RealtimeOutcome>((resolve) => {
    socket.once('connect', () => resolve({ ok: true, socket }));
    socket.once('connect_error', (error) => resolve({ ok: false, error: describeConnectError((error as Error).message), socket }));
  });
  // The attempt is given REALTIME_CONNECT_WAIT_MS before it is reported; a slower answer is reported when it comes.
  const [, outcome] = await Promise.all([delay(REALTIME_CONNECT_WAIT_MS), settled]);
  if (outcome.ok) log('Realtime: connected');
  else {
    log(`Realtime: ${outcome.error}`);
    socket.close();
  }
  return outcome;
}
