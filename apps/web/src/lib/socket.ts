import { REALTIME_CONNECT_WAIT_MS } from '@cellport/shared/constants';
import type { RealtimeTokenResponse } from '@cellport/shared/schemas/realtime';
import type { ManagerOptions, Socket, SocketOptions } from 'socket.io-client';
import { apiGet } from './api';

type Io = (options: Partial<ManagerOptions & SocketOptions>) => Socket;

export interface RealtimeOptions {
  /** The server → client events to forward to `onEvent`. */
  events: readonly string[];
  onEvent: (name: string, payload: unknown) => void;
  /** Injection points for tests; the defaults fetch GET /api/v1/token and load socket.io-client lazily. */
  fetchToken?: () => Promise<string>;
  loadIo?: () => Promise<Io>;
  log?: (...args: unknown[]) => void;
}

export type RealtimeOutcome = { ok: true; socket: Socket } | { ok: false; error: string; socket: Socket | null };

const defaultFetchToken = async () => (await apiGet<RealtimeTokenResponse>('/token')).token;
const defaultLoadIo = async (): Promise<Io> => (await import('socket.io-client')).io;
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
  let io: Io;
  try {
    io = await (options.loadIo ?? defaultLoadIo)();
  } catch (error) {
    log('Realtime: could not load the client', error instanceof Error ? error.message : error);
    return { ok: false, error: 'client', socket: null };
  }

  const socket = io({
    path: '/socket.io',
    transports: ['websocket', 'polling'],
    reconnection: false,
    // Browsers send extra headers only with the polling transport; the query parameter covers the WebSocket.
    extraHeaders: { Authorization: `Bearer ${token}` },
    query: { token },
    auth: { token },
  });
  for (const name of options.events) socket.on(name, (payload: unknown) => options.onEvent(name, payload));

  const settled = new Promise<RealtimeOutcome>((resolve) => {
    socket.once('connect', () => resolve({ ok: true, socket }));
    socket.once('connect_error', (error: Error) => resolve({ ok: false, error: describeConnectError(error.message), socket }));
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
