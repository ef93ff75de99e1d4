import { createSocket } from 'node:dgram';
import type { RemoteInfo, Socket as DgramSocket } from 'node:dgram';
import { isIPv4 } from 'node:net';
import { buildUdpDatagram, parseUdpDatagram } from './socks5-udp.js';
import type { TrafficMeter, MeteredConnection } from './traffic-meter.js';
import type { ClientDatagramChannel } from './udp-client-channel.js';
import type { ProxyLimits } from './types.js';

// One SOCKS5 UDP association (RFC 1928 §7): datagrams from the client's channel are checked by the modem's target
// policy and sent from a UDP socket on the modem's egress address; what targets send back goes to the client with the
// sender in the header. The client side is a ClientDatagramChannel, so this file does not know whether the client
// reaches the host directly or through a gateway. Whoever opened the association (the SOCKS control connection)
// closes it; it ends by itself after udpIdleTimeoutMs without a datagram either way, or when its channel ends.

/** A port's bandwidth for datagrams (port-rate-limit.ts): whether one may pass now; charged when it may. */
export interface DatagramRate { admitDatagram(upload: boolean, n: number): boolean }

/** What an association needs of its modem (ModemProxy). */
export interface DatagramEgress {
  /** The modem's egress address now: datagrams leave from it. */
  readonly egress: string;
  readonly limits: ProxyLimits;
  /**
   * Resolves and checks a datagram's target as a CONNECT target is checked (policy, the egress family); null: drop
   * the datagram (refused, unresolvable, the modem rotating or closed). Never rejects.
   */
  resolveDatagramTarget(host: string, port: number): Promise<string | null>;
  /** The TTL a port's datagrams leave with (its fingerprint preset's, issue 30); null or absent: the kernel's own. */
  datagramTtl?(portId: string): number | null;
}

/**
 * Replies are taken only from addresses the client sent to (address-dependent filtering, RFC 4787), so a stranger who
 * learns the egress port cannot send to the customer. Bounded: the oldest address is forgotten past this many.
 */
const MAX_PEERS = 1024;

const kAssociation = Symbol('cellport.udpAssociation');
type EgressSocket = DgramSocket & { [kAssociation]?: UdpAssociation };

function onEgressMessage(this: EgressSocket, msg: Buffer, rinfo: RemoteInfo): void {
  this[kAssociation]!.fromTarget(this, msg, rinfo);
}
function onEgressError(this: EgressSocket): void {
  this[kAssociation]!.egressFailed(this);
}
/** A datagram that cannot leave (no route, too big) is lost, as UDP allows; the association goes on. */
function ignoreSendError(): void {}
function checkIdle(association: UdpAssociation): void {
  association.checkIdle();
}

export class UdpAssociation implements MeteredConnection {
  portId: string | null;
  meteredRead = 0;
  meteredWritten = 0;
  /** Payload bytes the customer sent that were relayed (their traffic out), counted per datagram. */
  bytesRead = 0;
  /** Payload bytes relayed to the customer (their traffic in). */
  bytesWritten = 0;
  private egressSocket: EgressSocket | null = null;
  private readonly peers = new Set<string>();
  private lastActivity = Date.now();
  private idleTimer: NodeJS.Timeout | null;
  private closed = false;

  /**
   * Starts relaying for `portId` (counted from now in `meter`). `onEnd` is called once when the association ends by
   * itself (idle, or its channel ended), so its owner can close the control connection; close() does not call it.
   */
  constructor(
    private readonly channel: ClientDatagramChannel,
    private readonly modem: DatagramEgress,
    portId: string,
    private readonly meter: TrafficMeter,
    private readonly onEnd: () => void,
    /** The port's bandwidth cap: datagrams past it are dropped (policed), as a full link would drop them. */
    private readonly rate?: DatagramRate,
  ) {
    this.portId = portId;
    channel.onMessage = (datagram) => this.fromClient(datagram);
    channel.onClose = () => this.end();
    this.idleTimer = setTimeout(checkIdle, modem.limits.udpIdleTimeoutMs, this);
    meter.track(this);
  }

  /** The meter reads this association's own byte counts (a TCP connection's are its socket's). */
  get counts(): this {
    return this;
  }

  /** The address the client sends to (BND.ADDR and BND.PORT). */
  get replyAddress(): ClientDatagramChannel['replyAddress'] {
    return this.channel.replyAddress;
  }

  /**
   * The modem's egress changed (or stands for a new public IP): the socket on the old address is closed, and the next
   * datagram leaves from a new one on the current address. Replies still on their way to the old one are lost.
   */
  renewEgress(): void {
    this.closeEgress();
  }

  /** Ends the association: every socket and the timer are gone, and its bytes are counted. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.channel.close();
    this.closeEgress();
    this.meter.untrack(this);
  }

  // Internals (called from the module-level socket handlers).

  private fromClient(datagram: Buffer): void {
    if (this.closed) return;
    this.lastActivity = Date.now();
    const parsed = parseUdpDatagram(datagram);
    // RFC 1928 §7: a relay that does not reassemble fragments drops any datagram whose FRAG is not 0.
    if (parsed === null || parsed.frag !== 0) return;
    const { port, payload } = parsed;
    void this.modem.resolveDatagramTarget(parsed.host, port).then((address) => {
      if (address !== null) this.toTarget(address, port, payload);
    });
  }

  private toTarget(address: string, port: number, payload: Buffer): void {
    if (this.closed) return;
    if (!this.peers.has(address)) {
      if (this.peers.size >= MAX_PEERS) this.peers.delete(this.peers.values().next().value!);
      this.peers.add(address);
    }
    if (this.rate && !this.rate.admitDatagram(true, payload.length)) return;
    this.egress().send(payload, port, address, ignoreSendError);
    this.bytesRead += payload.length;
  }

  fromTarget(socket: EgressSocket, msg: Buffer, rinfo: RemoteInfo): void {
    if (this.closed || socket !== this.egressSocket || !this.peers.has(rinfo.address)) return;
    this.lastActivity = Date.now();
    if (this.rate && !this.rate.admitDatagram(false, msg.length)) return;
    this.bytesWritten += msg.length;
    this.channel.send(buildUdpDatagram(rinfo.address, rinfo.port, msg));
  }

  /** The egress socket failed (its address is gone, say): the next datagram tries a new one. */
  egressFailed(socket: EgressSocket): void {
    if (socket === this.egressSocket) this.closeEgress();
  }

  checkIdle(): void {
    this.idleTimer = null;
    if (this.closed) return;
    const limit = this.modem.limits.udpIdleTimeoutMs;
    const idle = Date.now() - this.lastActivity;
    if (idle >= limit) this.end();
    else this.idleTimer = setTimeout(checkIdle, limit - idle, this);
  }

  /** The socket on the current egress address, opened on first use. */
  private egress(): EgressSocket {
    if (this.egressSocket !== null) return this.egressSocket;
    const address = this.modem.egress;
    const socket: EgressSocket = createSocket(isIPv4(address) ? 'udp4' : 'udp6');
    socket[kAssociation] = this;
    socket.on('message', onEgressMessage);
    socket.on('error', onEgressError);
    // The port's fingerprint preset (issue 30): its TTL, set on bind, before the queued datagrams go.
    const ttl = this.portId === null ? null : this.modem.datagramTtl?.(this.portId) ?? null;
    if (ttl !== null) socket.once('listening', () => socket.setTTL(ttl));
    // Datagrams sent before the bind completes are queued by Node and leave from this address, never from 0.0.0.0.
    socket.bind({ address, port: 0 });
    this.egressSocket = socket;
    return socket;
  }

  private closeEgress(): void {
    const socket = this.egressSocket;
    if (socket === null) return;
    this.egressSocket = null;
    this.peers.clear();
    socket.close();
  }

  private end(): void {
    if (this.closed) return;
    this.close();
    this.onEnd();
  }
}
