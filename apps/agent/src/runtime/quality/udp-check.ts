import { createSocket } from 'node:dgram';
import { randomInt } from 'node:crypto';
import { isIP } from 'node:net';

// Whether UDP gets through a modem (issue 27, item 8): the SOCKS5 UDP ASSOCIATE of its ports sends from a UDP socket
// on the modem's egress, so one datagram sent the same way and answered says the ports' UDP works. The datagram is a
// DNS query for example.com's A record: a DNS resolver answers it, and so does a plain UDP echo (the server's own,
// `UDP_ECHO`), both with the query's id first, which is what is checked.

export interface UdpTarget { host: string; port: number }

/** Parses `host:port` or `[v6]:port`; throws with the reason. */
export function parseUdpTarget(value: string): UdpTarget {
  const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(value) ?? /^([^:\s]+):(\d{1,5})$/.exec(value);
  const port = m ? Number(m[2]) : 0;
  if (!m || port < 1 || port > 65535) throw new Error(`${value} is not host:port`);
  return { host: m[1]!, port };
}

export function dnsQuery(id: number, name = 'example.com'): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(0x0100, 2); // recursion desired
  header.writeUInt16BE(1, 4); // one question
  const labels = name.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)]));
  return Buffer.concat([header, ...labels, Buffer.from([0, 0, 1, 0, 1])]);
}

/** true when the target answered a datagram sent from `localAddress` within `timeoutMs`, false when not. */
export function checkUdp(target: UdpTarget, localAddress: string, timeoutMs: number): Promise<boolean> {
  const v6 = isIP(localAddress) === 6;
  const socket = createSocket(v6 ? 'udp6' : 'udp4');
  const id = randomInt(0, 65536);
  return new Promise<boolean>((resolve) => {
    const done = (ok: boolean) => { clearTimeout(timer); socket.close(); resolve(ok); };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('error', () => done(false));
    socket.on('message', (msg) => { if (msg.length >= 2 && msg.readUInt16BE(0) === id) done(true); });
    socket.bind({ address: localAddress, port: 0 }, () => {
      socket.send(dnsQuery(id), target.port, target.host, (err) => { if (err) done(false); });
    });
  });
}
