import { randomUUID } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import {
  HOST_KEY_REFUSED, HOST_PROTOCOL, heartbeatSchema, rotateReplySchema, rotationStatusSchema, trafficReportSchema,
  type AgentError, type Heartbeat, type RotateReply, type TrafficAck,
} from '@cellport/shared/schemas/host-protocol';
import { gatewayTicketRequestSchema } from '@cellport/shared/schemas/gateway-protocol';
import { Server, type Socket } from 'socket.io';
import type { AppContext } from '../../context.js';
import {
  HOST_ROTATE, HOST_ROTATE_CLAIMED, HOST_ROTATE_REPLY, HOST_ROTATE_STATUS,
  type HostRotateClaimed, type HostRotateReply, type HostRotateRequest, type HostRotateStatus,
} from '../../integrations/modem-control/agent-driver.js';
import { BUS_RESYNC } from '../../lib/bus.js';
import { hashToken } from '../../lib/tokens.js';
import { signLinkTicket, type GatewayLinksRepository, type GatewayTrust } from '../gateways/index.js';
import type { NotificationsService } from '../notifications/index.js';
import { recordQuotaCrossings, screenSamples, type TrafficRepository } from '../traffic/index.js';
import { hostForKey } from './host-keys.repository.js';
import { loadDesiredStates } from './host-state.js';
import type { HostStateRepository } from './host-state.repository.js';
import type { HostsRepository, ModemChange } from './hosts.repository.js';
import { TOPICS } from '../../lib/bus-topics.js';
import { PORTS_CHANNEL } from '../../lib/ports-channel.js';

/** An agent connected to some instance: any other instance drops its older connection of that host. */
const HOST_CONNECTED = TOPICS.hostConnected;
const RECOMPUTE_DEBOUNCE_MS = 75;
const BATCH_KEEP_DAYS = 7;
const PRUNE_EVERY_MS = 3_600_000;

interface HostConnection {
  socket: Socket;
  keyHash: string;
  /** The version of the last state sent; null until the first one went out. */
  version: string | null;
  /** The version the agent last reported serving on this connection (announced on TOPICS.hostServes when it moves). */
  served?: string | null;
  /** When this instance last recorded contact (the database's clock); null before the first write. */
  lastSeen: Date | null;
  /** Rotations sent to the agent and not answered yet: commandId → IMEI. */
  rotations: Map<string, string>;
  /** This connection's fencing epoch for gateway links, once recorded. */
  epoch: Promise<number> | null;
}

export interface HostProtocolServer {
  io: Server;
  /** Hosts with an agent connected to this instance. */
  connectedHosts(): string[];
  /**
   * Takes silent hosts offline now (the timer calls it every HOST_SWEEP_MS). Silence counts only over time this
   * instance was up: nothing is taken offline until it has been up HOST_OFFLINE_AFTER_SECONDS and
   * HOST_RECONNECT_GRACE_SECONDS since `upSince` (its start; tests pass an earlier time).
   */
  sweep(upSince?: number): Promise<void>;
  /** Resolves when no state recomputation or connection bookkeeping is pending or running (tests). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

type Ack = (reply: unknown) => void;
const answer = (ack: unknown, reply: unknown) => { if (typeof ack === 'function') (ack as Ack)(reply); };

/** Where the heartbeats' speed tests go: the catalog's ModemQualityTracker keeps each modem's median (decision 039). */
export interface ModemQualityRecorder {
  record(hostId: string, modems: Heartbeat['modems']): Promise<void>;
}

/** What the host protocol's server works with (the composition root builds them). */
export interface HostProtocolDeps {
  hostsRepository: HostsRepository; hostStateRepository: HostStateRepository; notifications: NotificationsService;
  trafficRepository: TrafficRepository; gatewayLinks: GatewayLinksRepository; gatewayTrust: GatewayTrust; modemQuality: ModemQualityRecorder;
}

/**
 * The host protocol's server (docs/decisions/016-host-protocol.md): its own socket.io server on the app's HTTP
 * server at HOST_PROTOCOL.path, one connection per agent, authenticated by the host key.
 * - State: the whole DesiredState on connect; after every announcement on 'cellport_ports' (ports, modems, hosts,
 *   users' activity), debounced and coalesced, the states of the hosts connected here are recomputed and sent when
 *   their version changed. Nothing is queried while nothing is announced.
 * - Heartbeats and silence: contact, version and per-modem status are recorded; silent hosts go offline by a sweep.
 * - Traffic: per-port samples counted once per batch id.
 * - Rotation: requests arrive on the bus from any instance (AgentModemDriver); the instance holding the host's
 *   connection claims them, sends 'rotate' and relays statuses and the reply back on the bus.
 */
export async function startHostProtocol(server: HttpServer, ctx: AppContext, deps: HostProtocolDeps): Promise<HostProtocolServer> {
  const { bus, log } = ctx;
  const { hostsRepository: hostsRepo, hostStateRepository: hostState, notifications, trafficRepository: traffic, gatewayLinks, gatewayTrust, modemQuality } = deps;
  const instance = randomUUID();
  /** When this instance started listening to agents: a host it has not heard from before is not silent yet. */
  const startedAt = Date.now();
  const hosts = new Map<string, HostConnection>();
  let closing = false;
  /** Writes started by events (connect, disconnect), awaited by settled() and close(). */
  const work = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>) => {
    const tracked = p.finally(() => work.delete(tracked));
    work.add(tracked);
  };
  const io = new Server(server, {
    path: HOST_PROTOCOL.path, serveClient: false, cors: { origin: false }, maxHttpBufferSize: 1_000_000,
  });

  io.use((socket, next) => {
    const key = (socket.handshake.auth as { key?: unknown } | undefined)?.key;
    if (typeof key !== 'string') return next(new Error(HOST_KEY_REFUSED));
    hostForKey(ctx.db, key).then((hostId) => {
      if (!hostId) return next(new Error(HOST_KEY_REFUSED));
      socket.data.hostId = hostId;
      socket.data.keyHash = hashToken(key);
      next();
    }, (err: unknown) => {
      log.error({ err }, 'host key check failed');
      next(new Error('server error'));
    });
  });

  // ---- modem changes reach the customers on the modem
  const announce = async (changes: ModemChange[]) => {
    if (changes.length === 0) return;
    const customers = await hostsRepo.customersOn(changes.map((c) => c.id));
    for (const c of changes) {
      await bus.publish(TOPICS.modemStatus, {
        userIds: customers.get(c.id) ?? [], IMEI: c.imei, applyStatus: c.apply_status, ext_ip: c.ext_ip, online: c.online,
      });
    }
    // A modem that went offline or came back is a notification for its customers, written by the instance that
    // recorded the change (once, not by every instance hearing the bus).
    // Taken offline by the sweep, the text says what is known: how long the host has not been heard from.
    const tell = (ids: string[], online: boolean, silentMinutes?: number) => notifications.modemAvailability(ids, online, silentMinutes)
      .catch((err: unknown) => log.warn({ err }, 'modem availability not notified'));
    const went = changes.filter((c) => !c.online && c.was_online);
    const minutesOf = (c: ModemChange) => (c.silent_seconds === undefined ? undefined : Math.max(1, Math.round(c.silent_seconds / 60)));
    for (const minutes of new Set(went.map(minutesOf))) await tell(went.filter((c) => minutesOf(c) === minutes).map((c) => c.id), false, minutes);
    await tell(changes.filter((c) => c.online && !c.was_online).map((c) => c.id), true);
  };

  // ---- desired state: sent on connect, recomputed after announcements
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  const recompute = async () => {
    const ids = [...hosts.keys()];
    const states = await loadDesiredStates(hostState, ids);
    for (const id of ids) {
      const conn = hosts.get(id);
      if (!conn) continue;
      const desired = states.get(id);
      if (!desired || desired.keyHash !== conn.keyHash) {
        log.info({ hostId: id }, desired ? 'host key replaced: its agent is disconnected' : 'host removed: its agent is disconnected');
        conn.socket.disconnect(true);
        continue;
      }
      if (desired.state.version !== conn.version) {
        conn.version = desired.state.version;
        conn.socket.emit('state', desired.state);
      }
    }
  };
  const run = () => {
    timer = undefined;
    if (running) { again = true; return; }
    running = recompute().catch((err: unknown) => log.error({ err }, 'host states not recomputed'))
      .finally(() => {
        running = undefined;
        if (again) { again = false; schedule(); }
      });
  };
  const schedule = () => {
    if (hosts.size === 0 || timer) return;
    timer = setTimeout(run, RECOMPUTE_DEBOUNCE_MS);
  };
  const unlisten = await ctx.database.listen(PORTS_CHANNEL, schedule, schedule);
  const off: Array<() => void> = [bus.on(BUS_RESYNC, schedule)];

  const sendState = async (hostId: string, conn: HostConnection) => {
    const desired = (await loadDesiredStates(hostState, [hostId])).get(hostId);
    if (!desired || hosts.get(hostId) !== conn) return;
    conn.version = desired.state.version;
    conn.socket.emit('state', desired.state);
  };

  // ---- rotation relay
  const finishRotation = (conn: HostConnection, commandId: string, reply: RotateReply) => {
    if (!conn.rotations.delete(commandId)) return;
    const message: HostRotateReply = { commandId, reply };
    void bus.publish(HOST_ROTATE_REPLY, message).catch((err: unknown) => log.error({ err }, 'rotation reply not relayed'));
  };
  off.push(bus.on(HOST_ROTATE, (req: HostRotateRequest) => {
    const conn = hosts.get(req.hostId);
    if (!conn) return;
    conn.rotations.set(req.commandId, req.imei);
    const claimed: HostRotateClaimed = { commandId: req.commandId };
    void bus.publish(HOST_ROTATE_CLAIMED, claimed).catch(() => {});
    conn.socket.timeout(HOST_PROTOCOL.rotateTimeoutSeconds * 1000)
      .emit('rotate', { commandId: req.commandId, imei: req.imei }, (err: Error | null, reply: unknown) => {
        if (err) return finishRotation(conn, req.commandId, { ok: false, error: 'the agent did not answer in time' });
        const parsed = rotateReplySchema.safeParse(reply);
        finishRotation(conn, req.commandId, parsed.success ? parsed.data : { ok: false, error: 'the agent answered out of contract' });
      });
  }));

  // ---- one connection per host across instances: the newest wins
  off.push(bus.on(HOST_CONNECTED, (m: { hostId: string; instance: string }) => {
    if (m.instance !== instance) hosts.get(m.hostId)?.socket.disconnect(true);
  }));

  io.on('connection', (socket) => {
    const hostId = socket.data.hostId as string;
    const previous = hosts.get(hostId);
    const conn: HostConnection = {
      socket, keyHash: socket.data.keyHash as string, version: null, lastSeen: null, rotations: new Map(), epoch: null,
    };
    hosts.set(hostId, conn);
    if (previous) {
      log.warn({ hostId }, 'a second connection for the same host: the older one is closed');
      previous.socket.disconnect(true);
    }
    track((async () => {
      conn.lastSeen = await hostsRepo.touch(hostId);
      await bus.publish(HOST_CONNECTED, { hostId, instance });
      await sendState(hostId, conn);
    })().catch((err: unknown) => log.error({ err, hostId }, 'agent connection not set up')));

    socket.on('heartbeat', (data: unknown, ack: unknown) => {
      const parsed = heartbeatSchema.safeParse(data);
      if (!parsed.success) return answer(ack, { error: `heartbeat refused: ${parsed.error.issues[0]?.message ?? 'invalid'}` } satisfies AgentError);
      const link = parsed.data.gatewayLink;
      if (link) gatewayLinks.record(hostId, link).catch((err: unknown) => log.warn({ err, hostId }, 'gateway link state not recorded'));
      // Speed-test results join each modem's rolling median; a write only when a median changed (the catalog reads it).
      track(modemQuality.record(hostId, parsed.data.modems).catch((err: unknown) => log.warn({ err, hostId }, 'modem speed not recorded')));
      hostsRepo.heartbeat(hostId, parsed.data).then(async ({ lastSeen, changed }) => {
        if (hosts.get(hostId) === conn && lastSeen) conn.lastSeen = lastSeen;
        await announce(changed).catch((err: unknown) => log.warn({ err, hostId }, 'modem change not announced'));
        answer(ack, { ok: true });
        // Recorded above before it is announced: a fingerprint check subscribes, then reads the record (issue 30).
        const served = parsed.data.stateVersion;
        if (served !== null && served !== conn.served) {
          conn.served = served;
          await bus.publish(TOPICS.hostServes, { hostId, version: served }).catch((err: unknown) => log.warn({ err, hostId }, 'served version not announced'));
        }
        // The agent serves another version than the one sent last (it lost a state): it gets the whole state again.
        if (conn.version !== null && parsed.data.stateVersion !== conn.version && hosts.get(hostId) === conn) await sendState(hostId, conn);
      }).catch((err: unknown) => {
        log.error({ err, hostId }, 'heartbeat not recorded');
        answer(ack, { error: 'heartbeat not recorded', retry: true } satisfies AgentError);
      });
    });

    // A host behind a gateway: a ticket for its agent's link, with this connection's epoch (docs/decisions/031-gateway.md).
    // The epoch is taken on the first request, so only agents that use a gateway write it.
    socket.on('gateway-ticket', (data: unknown, ack: unknown) => {
      if (hosts.get(hostId) !== conn) return answer(ack, { error: 'this connection was replaced by a newer one' });
      // The ticket binds the agent's link key: without it a ticket would be a bearer credential (issue 26, item 10).
      const request = gatewayTicketRequestSchema.safeParse(data);
      if (!request.success) return answer(ack, { error: 'a gateway ticket needs the agent\'s link key: update the agent' });
      conn.epoch ??= gatewayLinks.nextEpoch(hostId);
      Promise.all([conn.epoch, gatewayLinks.ticketSubject(hostId)]).then(async ([epoch, subject]) => {
        if (!subject) return answer(ack, { error: 'this host is not behind a gateway' });
        answer(ack, { ticket: await signLinkTicket(gatewayTrust, { ...subject, hostId, epoch, linkKey: request.data.linkKey }) });
      }).catch((err: unknown) => {
        conn.epoch = null;
        log.error({ err, hostId }, 'gateway ticket not issued');
        answer(ack, { error: 'gateway ticket not issued', retry: true } satisfies AgentError);
      });
    });

    socket.on('traffic', (data: unknown, ack: unknown) => {
      const parsed = trafficReportSchema.safeParse(data);
      if (!parsed.success) return answer(ack, { error: `traffic report refused: ${parsed.error.issues[0]?.message ?? 'invalid'}` } satisfies AgentError);
      const report = parsed.data;
      // Each sample is judged on its own: a refused one is dropped, the rest of the report is counted.
      const screened = screenSamples(report.samples, ctx.config.HOST_TRAFFIC_MAX_AGE_HOURS);
      traffic.ingestReport(hostId, report.batchId, screened.samples).then(async ({ duplicate, accepted, refused }) => {
        // Quotas (decision 030): a failure here is caught by the port's next batch, so the batch stays acknowledged.
        if (!duplicate) {
          await recordQuotaCrossings(traffic, notifications, screened.samples.map((s) => s.port_id))
            .catch((err: unknown) => log.error({ err, hostId }, 'quota crossings not recorded'));
        }
        const notTaken = screened.refused.length + refused;
        if (notTaken && !duplicate) log.warn({ hostId, batchId: report.batchId, refused: notTaken, first: screened.refused[0] }, 'traffic samples refused');
        answer(ack, { batchId: report.batchId, accepted, duplicate, ...(notTaken ? { refused: notTaken } : {}) } satisfies TrafficAck);
      }, (err: unknown) => {
        log.error({ err, hostId }, 'traffic report not recorded');
        answer(ack, { error: 'traffic report not recorded', retry: true } satisfies AgentError);
      });
    });

    socket.on('rotation-status', (data: unknown) => {
      const parsed = rotationStatusSchema.safeParse(data);
      if (!parsed.success || !conn.rotations.has(parsed.data.commandId)) return;
      const status: HostRotateStatus = { commandId: parsed.data.commandId, status: parsed.data.status };
      void bus.publish(HOST_ROTATE_STATUS, status).catch(() => {});
    });

    socket.on('disconnect', () => {
      for (const commandId of [...conn.rotations.keys()]) finishRotation(conn, commandId, { ok: false, error: 'the agent disconnected' });
      if (hosts.get(hostId) !== conn) return; // replaced by a newer connection here
      hosts.delete(hostId);
      if (closing) return;
      track(hostsRepo.offlineAfterDisconnect(hostId, conn.lastSeen).then(announce)
        .catch((err: unknown) => log.error({ err, hostId }, 'host not marked offline after its agent left')));
    });
  });

  // ---- silent hosts, old batch ids
  let lastPrune = 0;
  // A host is offline after HOST_OFFLINE_AFTER_SECONDS of silence counted from max(last heard, this instance's start)
  // (issue 28, item 3): a server that was down heard nothing because it was down, and its agents reconnect on their
  // own backoff (at most 30 s, with jitter) once it is back, within HOST_RECONNECT_GRACE_SECONDS. Until both have
  // passed since the start, last_seen_at says nothing of the hosts.
  const judgeAfterMs = Math.max(ctx.config.HOST_OFFLINE_AFTER_SECONDS, ctx.config.HOST_RECONNECT_GRACE_SECONDS) * 1000;
  const sweep = async (upSince = startedAt) => {
    if (Date.now() - upSince >= judgeAfterMs) {
      await announce(await hostsRepo.sweepSilent(ctx.config.HOST_OFFLINE_AFTER_SECONDS));
    }
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = Date.now();
      await traffic.pruneBatches(BATCH_KEEP_DAYS);
    }
  };
  const sweepTimer = setInterval(() => {
    sweep().catch((err: unknown) => log.error({ err }, 'host sweep failed'));
  }, ctx.config.HOST_SWEEP_MS);
  sweepTimer.unref();

  return {
    io,
    connectedHosts: () => [...hosts.keys()],
    sweep,
    async settled() {
      while (timer || running || work.size) {
        if (work.size) await Promise.all(work);
        else if (running) await running;
        else await new Promise((r) => setTimeout(r, RECOMPUTE_DEBOUNCE_MS));
      }
    },
    async close() {
      closing = true;
      clearInterval(sweepTimer);
      clearTimeout(timer);
      for (const f of off) f();
      await unlisten();
      await running;
      await Promise.all(work);
      io.disconnectSockets(true);
      // io.close() would also close the HTTP server, which Fastify closes itself.
      io.engine.close();
    },
  };
}

