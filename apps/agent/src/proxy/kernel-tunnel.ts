import type { KernelRelay, RelayEnd } from '../relay/kernel-relay.js';
import type { ClientConnection } from './connection.js';
import type { ByteCounts } from './traffic-meter.js';

// A CONNECT or SOCKS5 tunnel whose two sockets the kernel relays (relay/kernel-relay.ts, decision 050: splice() on a
// native thread; issue 31, the proxy's CPU per GB). No JavaScript runs per chunk, so the client socket's own counters
// stop at what was read and written before the hand-over (the request, the answer): this record adds the relay's
// bytes for the meter, and its last movement stands in for the socket's idle timer (ModemProxy sweeps them).

export class KernelTunnel implements ByteCounts {
  private end: RelayEnd | null = null;
  /** Bytes moved both ways at the last idle sweep, and when that total last changed. */
  lastTotal = 0;
  lastMovedAt: number;

  constructor(readonly conn: ClientConnection, private readonly relay: KernelRelay, now: number) {
    this.lastMovedAt = now;
  }

  /** The relay's final counts (the client socket is its side a). */
  ended(end: RelayEnd): void {
    this.end = end;
  }

  /** Bytes the relay moved from the client (read) and to it (written). */
  relayed(): { read: number; written: number } {
    if (this.end !== null) return { read: this.end.aToB, written: this.end.bToA };
    return this.relay.bytes(this.conn.socket) ?? { read: 0, written: 0 };
  }

  get bytesRead(): number {
    return this.conn.socket.bytesRead + this.relayed().read;
  }

  get bytesWritten(): number {
    return this.conn.socket.bytesWritten + this.relayed().written;
  }
}
