import { isIPv4, isIPv6, SocketAddress } from 'node:net';

// The SOCKS5 UDP request header (RFC 1928 §7) that wraps every datagram between a client and its UDP relay:
//   +----+------+------+----------+----------+----------+
//   |RSV | FRAG | ATYP | DST.ADDR | DST.PORT |   DATA   |
//   | 2  |  1   |  1   | Variable |    2     | Variable |
// Parsed and built here, apart from any socket, so the direct relay and a relay fed over another link share it.

export const ATYP_IPV4 = 1;
export const ATYP_DOMAIN = 3;
export const ATYP_IPV6 = 4;

export interface UdpDatagram {
  /** Fragment number: 0 for a whole datagram; anything else is a fragment, which this relay does not reassemble. */
  frag: number;
  /** The target: an IP address (IPv6 in its canonical form, as Node reports peers) or a domain name. */
  host: string;
  port: number;
  /** DATA: a view into the datagram, not a copy. */
  payload: Buffer;
}

/** Reads the header of a datagram from a client; null when it is malformed (short, unknown ATYP, empty name, port 0). */
export function parseUdpDatagram(buf: Buffer): UdpDatagram | null {
  if (buf.length < 4 || buf[0] !== 0 || buf[1] !== 0) return null;
  const atyp = buf[3]!;
  let host: string;
  let end: number;
  if (atyp === ATYP_IPV4) {
    end = 10;
    if (buf.length < end) return null;
    host = `${buf[4]}.${buf[5]}.${buf[6]}.${buf[7]}`;
  } else if (atyp === ATYP_IPV6) {
    end = 22;
    if (buf.length < end) return null;
    let raw = '';
    for (let i = 4; i < 20; i += 2) raw += (i === 4 ? '' : ':') + buf.readUInt16BE(i).toString(16);
    // Canonical form, so it compares equal to the sender address of the target's replies.
    host = new SocketAddress({ address: raw, family: 'ipv6' }).address;
  } else if (atyp === ATYP_DOMAIN) {
    if (buf.length < 5) return null;
    end = 7 + buf[4]!;
    if (buf.length < end || buf[4] === 0) return null;
    host = buf.toString('utf8', 5, end - 2);
  } else {
    return null;
  }
  const port = buf.readUInt16BE(end - 2);
  if (port === 0) return null;
  return { frag: buf[2]!, host, port, payload: buf.subarray(end) };
}

/**
 * ATYP, ADDR and PORT: the tail of a SOCKS reply. An IP address, or a host name (a relay that is not on this host,
 * such as a gateway's, may be known by its name; RFC 1928 allows ATYP 3 in a reply); a name over 255 bytes throws.
 */
export function encodeAddress(address: string, port: number): Buffer {
  if (isIPv4(address)) {
    const out = Buffer.allocUnsafe(7);
    out[0] = ATYP_IPV4;
    writeIPv4(out, 1, address);
    out.writeUInt16BE(port, 5);
    return out;
  }
  if (!isIPv6(address)) {
    const name = Buffer.from(address);
    if (name.length === 0 || name.length > 255) throw new Error(`Not an address or host name: ${address}`);
    const out = Buffer.allocUnsafe(4 + name.length);
    out[0] = ATYP_DOMAIN;
    out[1] = name.length;
    name.copy(out, 2);
    out.writeUInt16BE(port, 2 + name.length);
    return out;
  }
  const out = Buffer.allocUnsafe(19);
  out[0] = ATYP_IPV6;
  writeIPv6(out, 1, address);
  out.writeUInt16BE(port, 17);
  return out;
}

/** A datagram for the client: the header naming the sender (an IP address, as the relay saw it), then the data. */
export function buildUdpDatagram(address: string, port: number, payload: Buffer): Buffer {
  const v4 = isIPv4(address);
  const headerLength = v4 ? 10 : 22;
  const out = Buffer.allocUnsafe(headerLength + payload.length);
  out[0] = 0;
  out[1] = 0;
  out[2] = 0;
  out[3] = v4 ? ATYP_IPV4 : ATYP_IPV6;
  if (v4) writeIPv4(out, 4, address);
  else writeIPv6(out, 4, address);
  out.writeUInt16BE(port, headerLength - 2);
  payload.copy(out, headerLength);
  return out;
}

function writeIPv4(out: Buffer, at: number, address: string): void {
  let part = 0;
  let value = 0;
  for (let i = 0; i < address.length; i++) {
    const c = address.charCodeAt(i);
    if (c === 46 /* . */) {
      out[at + part++] = value;
      value = 0;
    } else {
      value = value * 10 + (c - 48);
    }
  }
  out[at + part] = value;
}

/** Writes the 16 bytes of a valid IPv6 address ("::" compression and a dotted IPv4 tail included). */
function writeIPv6(out: Buffer, at: number, address: string): void {
  const zone = address.indexOf('%');
  if (zone >= 0) address = address.slice(0, zone);
  const groups = (text: string): number[] => {
    if (text === '') return [];
    const out: number[] = [];
    for (const piece of text.split(':')) {
      if (piece.includes('.')) {
        const [a, b, c, d] = piece.split('.').map(Number) as [number, number, number, number];
        out.push((a << 8) | b, (c << 8) | d);
      } else {
        out.push(parseInt(piece, 16));
      }
    }
    return out;
  };
  const gap = address.indexOf('::');
  const head = groups(gap < 0 ? address : address.slice(0, gap));
  const tail = gap < 0 ? [] : groups(address.slice(gap + 2));
  const all = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  for (let i = 0; i < 8; i++) out.writeUInt16BE(all[i]!, at + 2 * i);
}
