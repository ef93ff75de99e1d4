import { constants, type Http2Stream } from 'node:http2';
import type { ClientDatagramChannel, RelayAddress } from '../proxy/udp-client-channel.js';
import { closeStreamLater } from './close-stream-later.js';
import { DatagramDeframer, frameDatagram } from './datagram-frames.js';

// The client side of a UDP association whose client reached a gateway (decision 031): the gateway holds the UDP
// socket the customer sends to (replyAddress is its address there) and carries the datagrams, SOCKS header included,
// on a link stream of their own. A datagram that finds the stream's buffer full is dropped, as UDP may drop it,
// rather than queued without bound.

/** Bytes waiting on the stream past which a datagram to the client is dropped. */
const MAX_QUEUED = 1024 * 1024;

export class LinkDatagramChannel implements ClientDatagramChannel {
  onMessage: ((datagram: Buffer) => void) | null = null;
  onClose: (() => void) | null = null;
  private closed = false;

  constructor(private readonly stream: Http2Stream, readonly replyAddress: RelayAddress) {
    const deframer = new DatagramDeframer((d) => this.onMessage?.(d));
    stream.on('data', (chunk: Buffer) => deframer.push(chunk));
    stream.on('error', () => {});
    stream.on('close', () => {
      if (this.closed) return;
      this.closed = true;
      this.onClose?.();
    });
  }

  send(datagram: Buffer): void {
    if (this.closed || this.stream.destroyed || this.stream.writableLength > MAX_QUEUED) return;
    this.stream.write(frameDatagram(datagram));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    // Not at once: the association closes when its control stream does, inside the link's receive (close-stream-later.ts).
    closeStreamLater(this.stream, constants.NGHTTP2_NO_ERROR);
  }
}
