import { constants, type Http2Stream } from 'node:http2';
import { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import type { ClientDatagramChannel } from '../proxy/udp-client-channel.js';
import { markBurstyReader } from '../proxy/splice.js';
import { closeStreamLater } from './close-stream-later.js';

// A customer connection that arrived over the gateway link (an HTTP/2 stream), dressed as the socket the proxy front
// ends expect: the customer's address for whitelists (the gateway sends it), byte counters for the traffic meter, an
// idle timeout, and no-op socket options. Backpressure goes both ways: a full proxy buffer pauses the stream, which
// stops its flow-control window from being replenished, so the gateway stops sending on that stream alone.

const { NGHTTP2_CANCEL } = constants;

export class LinkSocket extends Duplex {
  bytesRead = 0;
  bytesWritten = 0;
  readonly remotePort = undefined;
  readonly remoteFamily: 'IPv4' | 'IPv6';
  /** A SOCKS5 UDP association's datagrams through the gateway (the relay asks for it instead of a socket of its own). */
  openDatagramChannel: (() => Promise<ClientDatagramChannel>) | null = null;
  private timeoutMs = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly stream: Http2Stream, readonly remoteAddress: string | undefined, readonly localPort: number,
    readonly localAddress: string) {
    super({ allowHalfOpen: true });
    this.remoteFamily = remoteAddress?.includes(':') ? 'IPv6' : 'IPv4';
    // Its chunks are the link's DATA frames, many per turn: the proxy's splice writes them on together.
    markBurstyReader(this as unknown as Socket);
    stream.on('data', (chunk: Buffer) => {
      this.bytesRead += chunk.length;
      this.touch();
      if (!this.push(chunk)) stream.pause();
    });
    stream.on('end', () => this.push(null));
    // A reset stream, or the link gone: the customer's connection is over.
    stream.on('close', () => this.destroy());
    stream.on('error', () => this.destroy());
  }

  override _read(): void {
    this.stream.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    this.bytesWritten += chunk.length;
    this.touch();
    if (this.stream.destroyed) return callback(new Error('link stream closed'));
    // Done as soon as the stream takes it, or when it drains: waiting for each write to reach the link would allow one
    // chunk in flight per customer connection.
    if (this.stream.write(chunk)) callback();
    else this.stream.once('drain', () => callback());
  }

  override _final(callback: (err?: Error | null) => void): void {
    if (this.stream.destroyed) return callback();
    this.stream.end(callback);
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    this.clearTimer();
    // Not at once: this may run inside the link's receive (close-stream-later.ts).
    closeStreamLater(this.stream, NGHTTP2_CANCEL);
    callback(err);
  }

  /** Like net.Socket's: 'timeout' after ms without a byte either way (0 turns it off). */
  setTimeout(ms: number, listener?: () => void): this {
    this.timeoutMs = ms;
    if (listener) this.once('timeout', listener);
    this.touch();
    return this;
  }

  setNoDelay(): this { return this; }
  setKeepAlive(): this { return this; }

  private touch(): void {
    if (this.timeoutMs <= 0) return this.clearTimer();
    if (this.timer) this.timer.refresh();
    else this.timer = setTimeout(() => { this.timer = null; this.emit('timeout'); }, this.timeoutMs).unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
