// Datagrams on a gateway link stream (a SOCKS5 UDP association through a gateway, decision 031): each one as a 2-byte
// big-endian length and its bytes, so a stream — a byte stream — keeps their boundaries. Both ends use this file.

/** The largest datagram a frame carries (a UDP payload cannot be larger). */
export const MAX_DATAGRAM = 65_535;

export function frameDatagram(datagram: Buffer): Buffer {
  const frame = Buffer.allocUnsafe(2 + datagram.length);
  frame.writeUInt16BE(datagram.length, 0);
  datagram.copy(frame, 2);
  return frame;
}

/** Cuts a stream's chunks back into datagrams. */
export class DatagramDeframer {
  private pending: Buffer | null = null;

  constructor(private readonly onDatagram: (datagram: Buffer) => void) {}

  push(chunk: Buffer): void {
    let buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    while (buf.length >= 2) {
      const length = buf.readUInt16BE(0);
      if (buf.length < 2 + length) break;
      this.onDatagram(buf.subarray(2, 2 + length));
      buf = buf.subarray(2 + length);
    }
    if (buf.length > 0) this.pending = buf;
  }
}
