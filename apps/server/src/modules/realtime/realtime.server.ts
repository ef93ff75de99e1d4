import type { Server as HttpServer } from 'node:http';
import {
  REALTIME_INVALID_TOKEN, REALTIME_PATH, REALTIME_TOO_MANY_CONNECTIONS, type ModemEvent, type RealtimeEventName,
} from '@cellport/shared/schemas/realtime';
import { Server, type Socket } from 'socket.io';
import type { AppContext } from '../../context.js';
import { TOPICS } from '../../lib/bus-topics.js';
import { clientAddress, trustsForwardedFor } from '../../lib/client-address.js';
import type { RealtimeRepository } from './realtime.repository.js';
import { verifyRealtimeToken } from './realtime-token.js';

export const userRoom = (userId: string) => `user:${userId}`;
const sessionRoom = (sessionId: string) => `session:${sessionId}`;
const addressRoom = (address: string) => `address:${address}`;

/** What the socket needs of the ledger: a customer's balances, for a balance event that came without them. */
export interface RealtimeBalances {
  balances(userId: string): Promise<{ btc: bigint; usdt: bigint }>;
}

/** The token from the bearer header, the `token` query parameter or the socket.io auth payload. */
function handshakeToken(socket: Socket): unknown {
  const auth = socket.handshake.auth as { token?: unknown } | undefined;
  if (auth?.token) return auth.token;
  const header = socket.handshake.headers.authorization;
  if (typeof header === 'string' && header.startsWith('Bearer ')) return header.slice(7);
  return socket.handshake.query.token;
}

/**
 * socket.io on the app's own HTTP server (docs/decisions/012-realtime.md). Each socket joins its customer's room.
 * Events arrive on every instance already — bus topics through PostgreSQL NOTIFY, committed poll changes through
 * their own NOTIFY — so each instance forwards them to its own sockets only and no socket.io adapter is needed.
 */
export function startRealtime(
  server: HttpServer, ctx: AppContext, { ledger, repo }: { ledger: RealtimeBalances; repo: RealtimeRepository },
): { io: Server; close(): Promise<void> } {
  const io = new Server(server, {
    path: REALTIME_PATH,
    serveClient: false,
    cors: { origin: false },
  });

  const roomSize = (room: string) => io.sockets.adapter.rooms.get(room)?.size ?? 0;
  // Bumped by every revocation this instance hears: a handshake whose session check spans one checks again.
  let revocations = 0;
  const trust = trustsForwardedFor(ctx.config);

  io.use((socket, next) => {
    admit(socket).then(next, (err: unknown) => {
      ctx.log.warn({ err }, 'realtime handshake failed');
      next(new Error(REALTIME_INVALID_TOKEN));
    });
  });

  /**
   * A socket is let in only with a token of a session that still exists (a signed-out session's token is dead at
   * once, on every instance: the session row is gone), and only while its account and its address hold fewer
   * sockets than allowed. The count and the joins happen in one turn after the last await, so concurrent
   * handshakes cannot all slip under the cap.
   */
  async function admit(socket: Socket): Promise<Error | undefined> {
    const holder = verifyRealtimeToken(handshakeToken(socket), ctx.config.secret);
    if (!holder) return new Error(REALTIME_INVALID_TOKEN);
    let seen: number;
    do {
      seen = revocations;
      if (!(await repo.sessionIsLive(holder))) return new Error(REALTIME_INVALID_TOKEN);
    } while (seen !== revocations);
    const address = clientAddress(socket.request, trust);
    if (roomSize(userRoom(holder.userId)) >= ctx.config.REALTIME_SOCKETS_PER_USER
      || roomSize(addressRoom(address)) >= ctx.config.REALTIME_SOCKETS_PER_ADDRESS) {
      return new Error(REALTIME_TOO_MANY_CONNECTIONS);
    }
    socket.data.userId = holder.userId;
    void socket.join([userRoom(holder.userId), sessionRoom(holder.sessionId), addressRoom(address)]);
    return undefined;
  }

  const hasSockets = (userId: string) => roomSize(userRoom(userId)) > 0;
  const toUser = (userId: string, event: RealtimeEventName, data: unknown) => {
    if (hasSockets(userId)) io.to(userRoom(userId)).emit(event, data);
  };

  const off: Array<() => void> = [];
  // Notifications (and any other committed poll change that carries an event).
  off.push(ctx.pollVersions.onChange((change) => {
    if (change.event) toUser(change.userId, change.event.name, change.event.data);
  }));

  // Modem status by IMEI; ext_ip only when it changed since the last event this instance saw for the modem.
  const lastIp = new Map<string, string>();
  off.push(ctx.bus.on(TOPICS.modemStatus, (e) => {
    const event: ModemEvent = { IMEI: e.IMEI, applyStatus: e.applyStatus };
    if (e.ext_ip && lastIp.get(e.IMEI) !== e.ext_ip) {
      lastIp.set(e.IMEI, e.ext_ip);
      event.ext_ip = e.ext_ip;
    }
    for (const userId of e.userIds ?? []) toUser(userId, 'modem', event);
  }));

  off.push(ctx.bus.on(TOPICS.paymentCompleted, (e) => toUser(e.userId, 'payment', e.payment)));
  // 'pending_payment' and 'pending_crypto_payment' come with the poll versions (above), bumped in the writing
  // transaction (payments/pending-crypto-poll.ts), not over the bus.
  off.push(ctx.bus.on(TOPICS.supportTicket, (e) => toUser(e.userId, 'support_ticket', e.event)));
  off.push(ctx.bus.on(TOPICS.tariffRealtime, (e) => { io.emit('tariff', { action: e.action, tariff: e.tariff }); }));

  // Balance: publishers send {userId} (and may send the account object); only an instance holding the
  // customer's sockets reads the balances.
  off.push(ctx.bus.on(TOPICS.balanceChanged, (e) => {
    if (!hasSockets(e.userId)) return;
    if (e.account) return toUser(e.userId, 'balance', e.account);
    ledger.balances(e.userId).then((b) => toUser(e.userId, 'balance', {
      btc: { balance: b.btc.toString(), address: null }, usdt: { balance: b.usdt.toString(), address: null },
    })).catch((err: unknown) => ctx.log.warn({ err }, 'balance event not forwarded'));
  }));

  // The sockets of an ended session (sign-out, "sign out the others", a password reset) or of a deactivated
  // customer close at once, on every instance: the revocation travels on the bus.
  off.push(ctx.bus.on(TOPICS.sessionRevoked, ({ ids, userId }) => {
    revocations++;
    const rooms = (ids ?? []).map(sessionRoom);
    if (userId) rooms.push(userRoom(userId));
    if (rooms.length) io.in(rooms).disconnectSockets(true);
  }));

  return {
    io,
    async close() {
      for (const f of off) f();
      io.disconnectSockets(true);
      // io.close() would also close the HTTP server, which Fastify closes itself.
      io.engine.close();
    },
  };
}
