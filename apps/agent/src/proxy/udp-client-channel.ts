import { createSocket } from 'node:dgram';
import type { RemoteInfo, Socket as DgramSocket } from 'node:dgram';
import { isIPv4 } from 'node:net';
import { unmapIPv4 } from './target-policy.js';

// The client's side of a UDP association: how datagrams (SOCKS UDP header included) travel between the customer's
// client and the relay. The association (udp-association.ts) knows only this interface, so the same relay serves a
// client that reaches this host directly (DirectClientChannel below: a UDP socket of our own) and one whose datagrams
// come over another link (a gateway in front of a host behind NAT).

/** Where the client sends its datagrams: BND.ADDR and BND.PORT of the UDP ASSOCIATE reply. */
export interface RelayAddress { address: string; port: number }

export interface ClientDatagramChannel {
  /** The address the client must send to; the UDP ASSOCIATE reply carries it. */
  readonly replyAddress: RelayAddress;
  /**
   * Each datagram that comes from the client, SOCKS header included. The channel delivers only datagrams from the
   * association's own client (what "own" means is the channel's: the direct one checks the source address).
   */
  onMessage: ((datagram: Buffer) => void) | null;
  /** Called once if the channel ends on its own (a socket error, a link lost); not after close(). */
  onClose: (() => void) | null;
  /** Sends one datagram, SOCKS header included, to the client; dropped when it cannot go (UDP may lose it anyway). */
  send(datagram: Buffer): void;
  /** Closes the channel; nothing is delivered after it. Idempotent. */
  close(): void;
}

const kChannel = Symbol('cellport.udpChannel');
type ChannelSocket = DgramSocket & { [kChannel]?: DirectClientChannel };

function onSocketMessage(this: ChannelSocket, msg: Buffer, rinfo: RemoteInfo): void {
  this[kChannel]!.receive(msg, rinfo);
}
function onSocketError(this: ChannelSocket): void {
  this[kChannel]!.fail();
}
/** A datagram that cannot be sent (too big, no buffer) is lost, as UDP allows; it must not end the association. */
function ignoreSendError(): void {}

/**
 * A UDP socket of the relay's own, on the address the client's TCP control connection reached, so that BND.ADDR is an
 * address the client can use. RFC 1928 §7: only datagrams from the client's address are taken; the first one fixes
 * the client's port too, and from then on only that address and port are, and replies go there.
 */
export class DirectClientChannel implements ClientDatagramChannel {
  onMessage: ((datagram: Buffer) => void) | null = null;
  onClose: (() => void) | null = null;
  private clientPort = 0;
  private closed = false;

  private constructor(
    private readonly socket: ChannelSocket,
    private readonly clientAddress: string,
    readonly replyAddress: RelayAddress,
  ) {
    socket[kChannel] = this;
    socket.on('message', onSocketMessage);
    socket.on('error', onSocketError);
  }

  /**
   * Binds a UDP socket on `localAddress` (the TCP connection's local address; the OS picks the port) for a client at
   * `clientAddress` (the TCP connection's peer). IPv4-mapped forms (a dual-stack listener) are taken as IPv4.
   */
  static open(localAddress: string, clientAddress: string): Promise<DirectClientChannel> {
    const local = unmapIPv4(localAddress) ?? localAddress;
    const client = unmapIPv4(clientAddress) ?? clientAddress;
    const socket = createSocket(isIPv4(local) ? 'udp4' : 'udp6');
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => {
        socket.close();
        reject(err);
      };
      socket.once('error', onError);
      socket.bind({ address: local, port: 0 }, () => {
        socket.removeListener('error', onError);
        resolve(new DirectClientChannel(socket, client, { address: local, port: socket.address().port }));
      });
    });
  }

  receive(msg: Buffer, rinfo: RemoteInfo): void {
    if (rinfo.address !== this.clientAddress) return;
    if (this.clientPort === 0) this.clientPort = rinfo.port;
    else if (rinfo.port !== this.clientPort) return;
    this.onMessage?.(msg);
  }

  send(datagram: Buffer): void {
    // Nothing can be sent before the client's first datagram says which port it listens on.
    if (this.closed || this.clientPort === 0) return;
    this.socket.send(datagram, this.clientPort, this.clientAddress, ignoreSendError);
  }

  fail(): void {
    if (this.closed) return;
    this.close();
    this.onClose?.();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.close();
  }
}
