import { createSocket, type Socket } from 'node:dgram';
import { isIPv6 } from 'node:net';

// The agents' default UDP check target (issue 27, item 8; apps/agent README, "Speed tests"): a datagram that looks
// like a DNS query (at most 512 bytes, the query bit clear) is sent back as it came, so an agent learns whether UDP
// gets through a modem and back. The answer is never larger than the question, and at most `perSecond` answers go
// out each second, so the port cannot amplify or be used to flood anyone.

export interface UdpEcho { port: number; close(): Promise<void> }

export function looksLikeDnsQuery(msg: Buffer): boolean {
  return msg.length >= 12 && msg.length <= 512 && (msg[2]! & 0x80) === 0;
}

export function startUdpEcho(host: string, port: number, perSecond = 200): Promise<UdpEcho> {
  const socket: Socket = createSocket({ type: isIPv6(host) || host === '::' ? 'udp6' : 'udp4' });
  let second = 0;
  let answered = 0;
  socket.on('message', (msg, from) => {
    if (!looksLikeDnsQuery(msg)) return;
    const now = Math.floor(Date.now() / 1000);
    if (now !== second) { second = now; answered = 0; }
    if (++answered > perSecond) return;
    socket.send(msg, from.port, from.address);
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind({ address: host, port }, () => {
      socket.off('error', reject);
      socket.on('error', () => {});
      resolve({ port: socket.address().port, close: () => new Promise((r) => socket.close(() => r())) });
    });
  });
}
