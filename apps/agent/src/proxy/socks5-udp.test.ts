import { createSocket } from 'node:dgram';
import type { Socket as DgramSocket } from 'node:dgram';
import { once } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildUdpDatagram, encodeAddress, parseUdpDatagram } from './socks5-udp.js';
import { createTargetPolicy } from './target-policy.js';
import {
  access, closed, destroyTestClients, EGRESS, expectNoLeaks, ipv6Available, parseSocksUdpReply, quietResources, resourceCounts,
  socksUdpAssociate, socksUdpDatagram, startModem, startUdpEcho, udpClient,
} from './test-support.js';
import type { TestModem, UdpEcho } from './test-support.js';
import { TrafficMeter } from './traffic-meter.js';
import { UdpAssociation } from './udp-association.js';
import type { ClientDatagramChannel } from './udp-client-channel.js';

const P1 = access('p1', { whitelist: ['127.0.0.77'] });
const AUTH: [string, string] = [P1.login, P1.password];

let echo: UdpEcho;
let modem: TestModem;

beforeAll(async () => {
  echo = await startUdpEcho();
  modem = await startModem({ ports: [P1, access('off', { state: 'suspended' })] });
});
afterAll(async () => {
  await modem.close();
  await echo.close();
});
afterEach(async () => {
  await destroyTestClients();
  echo.seen.length = 0;
});

/** An association for P1 and a client UDP socket on 127.0.0.1 (the control connection's address). */
async function associate(proxy: TestModem = modem, localAddress = '127.0.0.1') {
  const { control, reply, relay } = await socksUdpAssociate(proxy.socks, { auth: AUTH, localAddress });
  expect(reply).toBe(0);
  const client = await udpClient(localAddress);
  return { control, relay, client };
}

/** Sends `payload` to the echo target through the relay; what came back (sender and the address the echo saw). */
async function roundTrip(client: Awaited<ReturnType<typeof udpClient>>, relay: { address: string; port: number }, payload: string) {
  client.send(relay, socksUdpDatagram(echo.address, echo.port, payload));
  const answer = parseSocksUdpReply(await client.next());
  const text = answer.payload.toString();
  return { from: `${answer.host}:${answer.port}`, seenFrom: text.slice(0, text.indexOf('\n')), data: text.slice(text.indexOf('\n') + 1) };
}

describe('SOCKS5 UDP ASSOCIATE: relaying', () => {
  it('relays datagrams from the egress address and back with the sender in the header; BND.ADDR is where the client connected', async () => {
    const { relay, client, control } = await associate();
    expect(relay.address).toBe('127.0.0.1');
    expect(relay.port).toBeGreaterThan(0);
    expect(await roundTrip(client, relay, 'ping')).toEqual({ from: `${echo.address}:${echo.port}`, seenFrom: EGRESS, data: 'ping' });
    // A domain name (ATYP 3) is resolved and checked as a CONNECT target is.
    client.send(relay, socksUdpDatagram('localhost', echo.port, 'by name'));
    const byName = parseSocksUdpReply(await client.next());
    expect(byName.payload.toString()).toBe(`${EGRESS}\nby name`);
    expect(echo.seen.map((s) => s.from)).toEqual([EGRESS, EGRESS]);
    expect(control.closed).toBe(false);
  });

  it('a DNS query through the proxy gets its A record from a DNS server on 127.0.0.53', async () => {
    const dns = await startDnsServer('127.0.0.53', { 'cellport.test': '203.0.113.7' });
    try {
      const { relay, client } = await associate();
      client.send(relay, socksUdpDatagram('127.0.0.53', dns.port, dnsQuery(0x4c50, 'cellport.test')));
      const answer = parseSocksUdpReply(await client.next());
      expect(`${answer.host}:${answer.port}`).toBe(`127.0.0.53:${dns.port}`);
      expect(parseDnsAnswer(answer.payload)).toEqual({ id: 0x4c50, addresses: ['203.0.113.7'] });
      expect(dns.queriesFrom).toEqual([EGRESS]);
    } finally {
      await dns.close();
    }
  });

  it('drops fragments (FRAG != 0) and malformed headers; the next whole datagram goes through', async () => {
    const { relay, client } = await associate();
    client.send(relay, socksUdpDatagram(echo.address, echo.port, 'fragment', 1));
    client.send(relay, socksUdpDatagram(echo.address, echo.port, 'last fragment', 0x81));
    client.send(relay, Buffer.from([0, 0, 0, 9, 1, 2, 3, 4, 0, 80])); // unknown ATYP
    client.send(relay, Buffer.from([0, 0, 0, 1, 127, 0])); // truncated
    expect((await roundTrip(client, relay, 'whole')).data).toBe('whole');
    // The relay handles a client's datagrams in order: had one of the above been relayed, the echo saw it first.
    expect(echo.seen.map((s) => s.payload.toString())).toEqual(['whole']);
  });

  it('takes datagrams only from the control connection\'s address, and after the first only from that port', async () => {
    const { relay, client } = await associate();
    const stranger = await udpClient('127.0.0.78');
    stranger.send(relay, socksUdpDatagram(echo.address, echo.port, 'from another address'));
    expect((await roundTrip(client, relay, 'first')).data).toBe('first');
    // Same address, another port: not the client's socket any more.
    const sameHost = await udpClient('127.0.0.1');
    sameHost.send(relay, socksUdpDatagram(echo.address, echo.port, 'from another port'));
    expect((await roundTrip(client, relay, 'second')).data).toBe('second');
    expect(echo.seen.map((s) => s.payload.toString())).toEqual(['first', 'second']);
  });

  it('drops datagrams to refused targets (policy, family, unresolvable) without harm to the association', async () => {
    const denied = await startUdpEcho('127.0.0.2');
    const strict = await startModem({ policy: createTargetPolicy({ allowLoopback: true, deniedCidrs: ['127.0.0.2/32'] }), ports: [P1] });
    try {
      const { relay, client } = await associate(strict);
      for (const host of ['127.0.0.2', '10.0.0.1', '169.254.169.254', '192.168.8.1']) {
        client.send(relay, socksUdpDatagram(host, denied.port, `to ${host}`));
      }
      client.send(relay, Buffer.concat([Buffer.from([0, 0, 0, 4]), Buffer.alloc(15), Buffer.from([1, 0, 53, 0x61])])); // ::1 from IPv4
      client.send(relay, socksUdpDatagram('no-such-host.invalid', 53, 'unresolvable'));
      expect((await roundTrip(client, relay, 'allowed')).data).toBe('allowed');
      expect(denied.seen).toEqual([]);
      expect(echo.seen.map((s) => s.payload.toString())).toEqual(['allowed']);
    } finally {
      await strict.close();
      await denied.close();
    }
  });

  it('takes replies only from targets the client sent to', async () => {
    const { relay, client } = await associate();
    await roundTrip(client, relay, 'open the way');
    // The egress socket's port, as the echo target saw it, is known to a stranger on another address.
    const egressPort = await egressPortOf(client, relay);
    const stranger = createSocket('udp4');
    try {
      stranger.bind(0, '127.0.0.79');
      await once(stranger, 'listening');
      stranger.send('unsolicited', egressPort, EGRESS);
      // The stranger's datagram reached the egress socket before this round trip's reply did; had it been relayed,
      // the client would have received it first.
      expect((await roundTrip(client, relay, 'after')).data).toBe('after');
    } finally {
      stranger.close();
    }
  });

  it('drops datagrams while the modem rotates, and follows the new egress address afterwards', async () => {
    const own = await startModem({ ports: [P1] });
    try {
      const { relay, client, control } = await associate(own);
      expect((await roundTrip(client, relay, 'before')).seenFrom).toBe(EGRESS);
      const before = resourceCounts().udp;
      const checked = vi.spyOn(own, 'resolveDatagramTarget'); // observes (calls through): when the relay saw it
      own.beginRotation();
      client.send(relay, socksUdpDatagram(echo.address, echo.port, 'while rotating'));
      await vi.waitFor(() => expect(checked).toHaveBeenCalledTimes(1), { timeout: 15_000 });
      expect(await checked.mock.results[0]!.value).toBeNull();
      own.setEgress('127.0.9.10');
      own.endRotation();
      expect(await roundTrip(client, relay, 'after')).toMatchObject({ seenFrom: '127.0.9.10', data: 'after' });
      // The socket on the old address was closed: the relay still holds one client socket and one egress socket.
      await vi.waitFor(() => expect(resourceCounts().udp).toBe(before), { timeout: 15_000 });
      expect(echo.seen.map((s) => `${s.from} ${s.payload.toString()}`)).toEqual([`${EGRESS} before`, '127.0.9.10 after']);
      // A rotation that keeps the address (a HiLink) also moves the association to a new socket.
      const oldPort = await egressPortOf(client, relay);
      own.setEgress('127.0.9.10', { newPublicIp: true });
      expect(await egressPortOf(client, relay)).not.toBe(oldPort);
      expect(control.closed).toBe(false);
    } finally {
      await own.close();
    }
  });

  it('over IPv6: the relay on ::1 where the client connected, an IPv6 egress, the sender\'s IPv6 address in the header', async (ctx) => {
    if (!(await ipv6Available())) ctx.skip();
    const v6 = await startModem({ listenHost: '::1', egress: '::1', ports: [P1] });
    const echo6 = await startUdpEcho('::1');
    try {
      const { reply, relay } = await socksUdpAssociate(v6.socks, { auth: AUTH, host: '::1' });
      expect(reply).toBe(0);
      expect(relay.address).toBe('0:0:0:0:0:0:0:1');
      const client = await udpClient('::1');
      const loopback6 = [...Buffer.alloc(15), 1];
      client.send(relay, Buffer.concat([Buffer.from([0, 0, 0, 4, ...loopback6, echo6.port >> 8, echo6.port & 0xff]), Buffer.from('six')]));
      const answer = await client.next();
      expect([...answer.subarray(0, 20)]).toEqual([0, 0, 0, 4, ...loopback6]);
      expect(answer.readUInt16BE(20)).toBe(echo6.port);
      expect(answer.subarray(22).toString()).toBe('::1\nsix');
    } finally {
      await v6.close();
      await echo6.close();
    }
  });

  it('an egress address that cannot be bound loses the datagrams, not the association', async () => {
    const own = await startModem({ ports: [P1], egress: '192.0.2.1' }); // TEST-NET: not an address of this host
    try {
      const { relay, client, control } = await associate(own);
      const withoutEgress = resourceCounts().udp;
      const checked = vi.spyOn(own, 'resolveDatagramTarget'); // observes (calls through): when the relay saw them
      client.send(relay, socksUdpDatagram(echo.address, echo.port, 'lost'));
      client.send(relay, socksUdpDatagram(echo.address, echo.port, 'lost too'));
      await vi.waitFor(() => expect(checked).toHaveBeenCalledTimes(2), { timeout: 15_000 });
      for (const result of checked.mock.results) expect(await result.value).toBe(echo.address);
      // The egress socket was opened, failed to bind, and was closed.
      await vi.waitFor(() => expect(resourceCounts().udp).toBe(withoutEgress), { timeout: 15_000 });
      own.setEgress(EGRESS);
      expect((await roundTrip(client, relay, 'found')).seenFrom).toBe(EGRESS);
      expect(echo.seen.map((s) => s.payload.toString())).toEqual(['found']);
      expect(control.closed).toBe(false);
    } finally {
      await own.close();
    }
  });
});

describe('SOCKS5 UDP ASSOCIATE: who may use it', () => {
  it('a whitelisted client without credentials may associate', async () => {
    const { control, reply, relay } = await socksUdpAssociate(modem.socks, { localAddress: '127.0.0.77' });
    expect(reply).toBe(0);
    expect(relay.address).toBe('127.0.0.1');
    const client = await udpClient('127.0.0.77');
    expect((await roundTrip(client, relay, 'listed')).seenFrom).toBe(EGRESS);
    control.destroy();
  });

  it('answers 0x02 to a port that is not active, and to one over its connection limit (an association is a connection)', async () => {
    const off = await socksUdpAssociate(modem.socks, { auth: ['login-off', 'secret-off'] });
    expect(off.reply).toBe(0x02);
    await closed(off.control);
    const limited = await startModem({ ports: [P1], limits: { maxConnectionsPerPort: 1 } });
    try {
      const first = await associate(limited);
      const second = await socksUdpAssociate(limited.socks, { auth: AUTH });
      expect(second.reply).toBe(0x02);
      await closed(second.control);
      first.control.destroy();
    } finally {
      await limited.close();
    }
  });
});

describe('SOCKS5 UDP ASSOCIATE: the port\'s bandwidth cap', () => {
  it('drops the datagrams past the cap (policed); a second later the bucket\'s burst passes again', async () => {
    // 20 kB/s: the bucket saves at most 16 kB (MIN_BURST). Its clock is the test's and stands still during a burst,
    // so of 100 datagrams of 1 kB sent to a full bucket exactly 17 pass (16 kB, and one datagram over). The target only counts (no answers),
    // so every look at the clock is one datagram from the client being judged.
    let now = 10_000;
    let reads = 0;
    let onRead = () => {};
    const rateClock = () => { reads++; onRead(); return now; };
    const judged = (count: number) => new Promise<void>((resolve) => {
      onRead = () => { if (reads >= count) resolve(); };
      onRead();
    });
    const sink = createSocket('udp4');
    const received: string[] = [];
    sink.on('message', (msg) => received.push(msg.toString()));
    sink.bind(0, '127.0.0.1');
    await once(sink, 'listening');
    const capped = access('p1', { ...P1, limits: { bandwidthBytesPerSecond: 20_000, maxConnections: 5, quota: { state: 'ok' } } });
    const limited = await startModem({ ports: [capped], rateClock });
    try {
      const { client, relay, control } = await associate(limited);
      const send = async (payload: string) => {
        const count = reads + 1;
        client.send(relay, socksUdpDatagram('127.0.0.1', sink.address().port, payload));
        await judged(count); // one at a time, so none is lost in a full socket buffer before the relay sees it
      };
      const burst = async () => {
        const before = received.length;
        for (let i = 0; i < 100; i++) await send('x'.repeat(1000));
        // The marker: a second later it passes, and it leaves the relay's egress socket after every datagram of the
        // burst that passed; loopback keeps their order. So when it is in, the burst's count is final.
        now += 1000;
        await send('marker');
        await vi.waitFor(() => expect(received.at(-1)).toBe('marker'), { timeout: 10_000 });
        now += 1000; // and a second after the marker: the bucket is full again
        return received.length - before - 1;
      };
      now += 1000; // the bucket starts empty when the cap is set; a second later it is full
      expect(await burst()).toBe(17);
      expect(await burst()).toBe(17);
      control.destroy();
    } finally {
      await limited.close();
      await new Promise<void>((resolve) => sink.close(resolve));
    }
  });
});

describe('SOCKS5 UDP ASSOCIATE: the end of an association', () => {
  it('ends when the control connection closes: relay sockets and timer gone', async () => {
    const before = await quietResources();
    const own = await startModem({ ports: [P1] });
    const { control, relay, client } = await associate(own);
    await roundTrip(client, relay, 'x');
    control.destroy();
    // Only the client's own UDP socket is left.
    await vi.waitFor(() => expect(resourceCounts().udp).toBe(before.udp + 1), { timeout: 15_000 });
    expect(own.connectionCount).toBe(0);
    client.socket.close();
    await own.close();
    await expectNoLeaks(before);
  });

  it('ends after udpIdleTimeoutMs without a datagram, closing the control connection', async () => {
    const before = await quietResources();
    const own = await startModem({ ports: [P1], limits: { udpIdleTimeoutMs: 200 } });
    const { control, relay, client } = await associate(own);
    await roundTrip(client, relay, 'then silence');
    await closed(control);
    await vi.waitFor(() => expect(resourceCounts().udp).toBe(before.udp + 1), { timeout: 15_000 });
    expect(own.connectionCount).toBe(0);
    client.socket.close();
    await own.close();
    await expectNoLeaks(before);
  });

  it('ends when its port is suspended, and close() leaves nothing behind', async () => {
    const before = await quietResources();
    const own = await startModem({ ports: [P1] });
    const suspended = await associate(own);
    await roundTrip(suspended.client, suspended.relay, 'x');
    own.setPorts([{ ...P1, state: 'suspended' }]);
    await closed(suspended.control);
    await vi.waitFor(() => expect(resourceCounts().udp).toBe(before.udp + 1), { timeout: 15_000 });
    own.setPorts([P1]);
    const open = await associate(own);
    await roundTrip(open.client, open.relay, 'y');
    await own.close();
    await closed(open.control);
    suspended.client.socket.close();
    open.client.socket.close();
    await expectNoLeaks(before);
  });
});

describe('SOCKS5 UDP ASSOCIATE: traffic', () => {
  it('counts the payload both ways for the port, with the control connection\'s bytes', async () => {
    const own = await startModem({ ports: [P1] });
    try {
      const { control, relay, client } = await associate(own);
      let sent = 0;
      let received = 0;
      for (const payload of ['a', 'bb'.repeat(500), 'ccc'.repeat(3000)]) {
        const { data, seenFrom } = await roundTrip(client, relay, payload);
        sent += payload.length;
        received += seenFrom.length + 1 + data.length;
      }
      // Refused and fragmented datagrams are not counted: they were not relayed.
      client.send(relay, socksUdpDatagram('10.0.0.1', 53, 'refused'));
      client.send(relay, socksUdpDatagram(echo.address, echo.port, 'fragment', 1));
      await roundTrip(client, relay, '');
      const mid = own.meter.collect();
      expect(mid).toHaveLength(1);
      expect(mid[0]).toMatchObject({ portId: 'p1', bytesOut: BigInt(control.bytesWritten + sent), bytesIn: BigInt(control.bytesRead + received + EGRESS.length + 1) });
      await roundTrip(client, relay, 'more');
      control.destroy();
      await vi.waitFor(() => expect(own.connectionCount).toBe(0), { timeout: 15_000 });
      expect(own.meter.size).toBe(0);
      expect(own.meter.collect()).toEqual([expect.objectContaining({ portId: 'p1', bytesOut: 4n, bytesIn: BigInt(EGRESS.length + 1 + 4) })]);
    } finally {
      await own.close();
    }
  });
});

describe('UDP association: the client side is pluggable', () => {
  it('relays for a channel that is not a UDP socket (as a gateway link would deliver datagrams)', async () => {
    const meter = new TrafficMeter();
    const own = await startModem({ ports: [P1], meter });
    const sent: Buffer[] = [];
    let ended = 0;
    const channel: ClientDatagramChannel = {
      replyAddress: { address: '203.0.113.1', port: 40000 },
      onMessage: null,
      onClose: null,
      send: (datagram) => sent.push(datagram),
      close: () => {},
    };
    const association = new UdpAssociation(channel, own, 'p1', meter, () => ended++);
    try {
      expect(association.replyAddress).toEqual({ address: '203.0.113.1', port: 40000 });
      channel.onMessage!(socksUdpDatagram(echo.address, echo.port, 'over the link'));
      await vi.waitFor(() => expect(sent).toHaveLength(1), { timeout: 15_000 });
      const reply = parseSocksUdpReply(sent[0]!);
      expect(reply.payload.toString()).toBe(`${EGRESS}\nover the link`);
      // The link going away ends the association, and its owner hears of it once.
      channel.onClose!();
      expect(ended).toBe(1);
      expect(meter.collect()).toEqual([expect.objectContaining({ portId: 'p1', bytesOut: 13n, bytesIn: BigInt(EGRESS.length + 14) })]);
    } finally {
      association.close();
      await own.close();
    }
  });
});

describe('SOCKS UDP header', () => {
  it('parses IPv4, IPv6 (canonical form) and domain targets, and refuses malformed ones', () => {
    const v4 = parseUdpDatagram(socksUdpDatagram('192.0.2.5', 53, 'q'));
    expect(v4).toMatchObject({ frag: 0, host: '192.0.2.5', port: 53 });
    expect(v4!.payload.toString()).toBe('q');
    const v6 = Buffer.concat([Buffer.from([0, 0, 0, 4]), encodeAddress('2001:db8::1', 443).subarray(1), Buffer.from('x')]);
    expect(parseUdpDatagram(v6)).toMatchObject({ host: '2001:db8::1', port: 443 });
    expect(parseUdpDatagram(socksUdpDatagram('example.com', 80, '', 3))).toMatchObject({ frag: 3, host: 'example.com', port: 80 });
    for (const bad of [[0, 0, 0], [1, 0, 0, 1, 1, 2, 3, 4, 0, 80], [0, 0, 0, 1, 1, 2, 3, 4, 0, 0], [0, 0, 0, 3, 0, 0, 80], [0, 0, 0, 3, 5, 97]]) {
      expect(parseUdpDatagram(Buffer.from(bad)), JSON.stringify(bad)).toBeNull();
    }
  });

  it('builds replies naming IPv4 and IPv6 senders, and relay addresses given as IPs or names', () => {
    expect([...buildUdpDatagram('192.0.2.5', 53, Buffer.from('a'))]).toEqual([0, 0, 0, 1, 192, 0, 2, 5, 0, 53, 97]);
    const v6 = buildUdpDatagram('2001:db8::ffff:1.2.3.4', 8080, Buffer.alloc(0));
    expect([...v6.subarray(0, 4)]).toEqual([0, 0, 0, 4]);
    expect(v6.subarray(4, 20).toString('hex')).toBe('20010db8000000000000ffff01020304');
    expect(parseUdpDatagram(v6)).toMatchObject({ host: '2001:db8::ffff:102:304', port: 8080 });
    expect([...encodeAddress('::1', 1)]).toEqual([4, ...Array<number>(15).fill(0), 1, 0, 1]);
    // A relay known by its name (a gateway's public host): ATYP 3.
    expect([...encodeAddress('gw.example', 4000)]).toEqual([3, 10, ...Buffer.from('gw.example'), 4000 >> 8, 4000 & 0xff]);
    expect(() => encodeAddress('x'.repeat(256), 1)).toThrow();
  });
});

// Helpers.

/** The egress socket's port: the echo target sees it as the source port of a round trip. */
async function egressPortOf(client: Awaited<ReturnType<typeof udpClient>>, relay: { address: string; port: number }): Promise<number> {
  const target = createSocket('udp4');
  try {
    const seenPorts: number[] = [];
    target.on('message', (_msg, rinfo) => {
      seenPorts.push(rinfo.port);
      target.send('ok', rinfo.port, rinfo.address);
    });
    target.bind(0, '127.0.0.1');
    await once(target, 'listening');
    client.send(relay, socksUdpDatagram('127.0.0.1', target.address().port, 'which port'));
    await client.next();
    return seenPorts[0]!;
  } finally {
    target.close();
  }
}

/** A DNS query for the A record of `name` (RFC 1035 §4.1), recursion desired. */
function dnsQuery(id: number, name: string): Buffer {
  const labels = name.split('.').map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label)]));
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(0x0100, 2); // RD
  header.writeUInt16BE(1, 4); // QDCOUNT
  return Buffer.concat([header, ...labels, Buffer.from([0, 0, 1, 0, 1])]); // root, QTYPE A, QCLASS IN
}

/** Reads a question's name at `at`: the name and the offset after it (no compression in questions we build). */
function readName(msg: Buffer, at: number): [string, number] {
  const labels: string[] = [];
  while (msg[at] !== 0) {
    labels.push(msg.toString('latin1', at + 1, at + 1 + msg[at]!));
    at += 1 + msg[at]!;
  }
  return [labels.join('.'), at + 1];
}

/** The id and the A records of a DNS response. */
function parseDnsAnswer(msg: Buffer): { id: number; addresses: string[] } {
  expect(msg.readUInt16BE(2) & 0x8000).toBe(0x8000); // QR: a response
  const qd = msg.readUInt16BE(4);
  const an = msg.readUInt16BE(6);
  let at = 12;
  for (let i = 0; i < qd; i++) at = readName(msg, at)[1] + 4;
  const addresses: string[] = [];
  for (let i = 0; i < an; i++) {
    at = (msg[at]! & 0xc0) === 0xc0 ? at + 2 : readName(msg, at)[1]; // a pointer to the question's name, or a name
    const type = msg.readUInt16BE(at);
    const length = msg.readUInt16BE(at + 8);
    if (type === 1 && length === 4) addresses.push([...msg.subarray(at + 10, at + 14)].join('.'));
    at += 10 + length;
  }
  return { id: msg.readUInt16BE(0), addresses };
}

/** A DNS server that answers A queries for the names it knows (NXDOMAIN otherwise) and records who asked. */
async function startDnsServer(address: string, records: Record<string, string>):
  Promise<{ port: number; queriesFrom: string[]; close(): Promise<void> }> {
  const socket: DgramSocket = createSocket('udp4');
  const queriesFrom: string[] = [];
  socket.on('message', (query, rinfo) => {
    queriesFrom.push(rinfo.address);
    const [name, end] = readName(query, 12);
    const question = query.subarray(12, end + 4);
    const ip = records[name];
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2); // the id
    header.writeUInt16BE(ip ? 0x8180 : 0x8183, 2); // QR RD RA, NOERROR or NXDOMAIN
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(ip ? 1 : 0, 6);
    const answer = ip
      ? Buffer.from([0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, ...ip.split('.').map(Number)]) // name → offset 12, A IN, TTL 60
      : Buffer.alloc(0);
    socket.send(Buffer.concat([header, question, answer]), rinfo.port, rinfo.address);
  });
  socket.bind(0, address);
  await once(socket, 'listening');
  return { port: socket.address().port, queriesFrom, close: () => new Promise((resolve) => socket.close(resolve)) };
}
