import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { TRAFFIC_INTERVAL_MS, TrafficMeter } from './traffic-meter.js';
import type { MeteredConnection } from './traffic-meter.js';

/** A connected pair of real sockets: [the proxy's side (metered), the customer's side]. */
async function socketPair(): Promise<[Socket, Socket, () => void]> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const accepted = once(server, 'connection');
  const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
  const [proxySide] = (await accepted) as [Socket];
  await once(client, 'connect');
  return [proxySide, client, () => server.close()];
}

async function readBytes(socket: Socket, n: number): Promise<void> {
  let got = 0;
  while (got < n) got += ((await once(socket, 'data')) as [Buffer])[0].length;
}

describe('traffic meter', () => {
  it('counts bytes of open connections at collect, drains them, and counts the rest at close', async () => {
    const [proxySide, client, stop] = await socketPair();
    let clock = Date.parse('2030-01-01T00:07:30Z');
    const meter = new TrafficMeter(() => clock);
    const conn: MeteredConnection = { portId: 'p1', counts: proxySide, meteredRead: 0, meteredWritten: 0 };
    // Bytes moved before tracking started are the handshake's: they count too.
    client.write('hello');
    await readBytes(proxySide, 5);
    meter.track(conn);
    proxySide.write(Buffer.alloc(1000));
    await readBytes(client, 1000);
    expect(meter.collect()).toEqual([
      { portId: 'p1', intervalStart: Date.parse('2030-01-01T00:05:00Z'), bytesIn: 1000n, bytesOut: 5n },
    ]);
    expect(meter.collect()).toEqual([]);
    client.write(Buffer.alloc(300));
    await readBytes(proxySide, 300);
    proxySide.end(Buffer.alloc(70));
    client.end();
    await once(proxySide, 'close');
    clock += TRAFFIC_INTERVAL_MS; // the rest is counted in the interval it was seen in
    meter.untrack(conn);
    const samples = meter.collect();
    expect(samples).toEqual([{ portId: 'p1', intervalStart: Date.parse('2030-01-01T00:10:00Z'), bytesIn: 70n, bytesOut: 300n }]);
    expect(meter.size).toBe(0);
    stop();
  });

  it('keeps ports apart and moves a connection between ports without losing or doubling bytes', async () => {
    const [proxySide, client, stop] = await socketPair();
    const meter = new TrafficMeter(() => 0);
    const conn: MeteredConnection = { portId: 'a', counts: proxySide, meteredRead: 0, meteredWritten: 0 };
    meter.track(conn);
    client.write(Buffer.alloc(10));
    await readBytes(proxySide, 10);
    meter.flush(conn);
    conn.portId = 'b';
    client.write(Buffer.alloc(20));
    await readBytes(proxySide, 20);
    client.destroy();
    await once(proxySide, 'close');
    meter.untrack(conn);
    const samples = meter.collect(0).sort((x, y) => x.portId.localeCompare(y.portId));
    expect(samples).toEqual([
      { portId: 'a', intervalStart: 0, bytesIn: 0n, bytesOut: 10n },
      { portId: 'b', intervalStart: 0, bytesIn: 0n, bytesOut: 20n },
    ]);
    stop();
  });

  it('tells the runtime when bytes were counted; drainCounted returns them without reading open sockets', async () => {
    const [proxySide, client, stop] = await socketPair();
    const [otherSide, otherClient, stopOther] = await socketPair();
    const meter = new TrafficMeter(() => 0);
    let calls = 0;
    meter.onCounted = () => calls++;
    const closing: MeteredConnection = { portId: 'a', counts: proxySide, meteredRead: 0, meteredWritten: 0 };
    const staying: MeteredConnection = { portId: 'b', counts: otherSide, meteredRead: 0, meteredWritten: 0 };
    meter.track(closing);
    meter.track(staying);
    otherClient.write(Buffer.alloc(5));
    await readBytes(otherSide, 5);
    client.write(Buffer.alloc(9));
    await readBytes(proxySide, 9);
    client.destroy();
    await once(proxySide, 'close');
    meter.untrack(closing);
    expect(calls).toBe(1);
    expect(meter.drainCounted()).toEqual([{ portId: 'a', intervalStart: 0, bytesIn: 0n, bytesOut: 9n }]);
    // The open connection's bytes come with the next collect, once.
    expect(meter.collect(0)).toEqual([{ portId: 'b', intervalStart: 0, bytesIn: 0n, bytesOut: 5n }]);
    expect(meter.collect(0)).toEqual([]);
    otherClient.destroy();
    stop();
    stopOther();
  });
});

describe('traffic meter: things that keep their own counts', () => {
  it('counts a UDP association by its per-datagram counts, as it counts a socket', () => {
    const meter = new TrafficMeter(() => 0);
    const association = { portId: 'u', counts: { bytesRead: 0, bytesWritten: 0 }, meteredRead: 0, meteredWritten: 0 };
    meter.track(association);
    association.counts = { bytesRead: 512, bytesWritten: 1400 };
    expect(meter.collect(0)).toEqual([{ portId: 'u', intervalStart: 0, bytesIn: 1400n, bytesOut: 512n }]);
    association.counts = { bytesRead: 600, bytesWritten: 1400 };
    meter.untrack(association);
    expect(meter.drainCounted()).toEqual([{ portId: 'u', intervalStart: 0, bytesIn: 0n, bytesOut: 88n }]);
    expect(meter.size).toBe(0);
  });

  it("adds each port's bytes to its own sample per interval, across drains, interval changes and late flushes", () => {
    const start = Date.parse('2030-01-01T00:00:00Z');
    let clock = start + 1000;
    const meter = new TrafficMeter(() => clock);
    const counts = { bytesRead: 0, bytesWritten: 0 };
    const other = { bytesRead: 0, bytesWritten: 0 };
    const a: MeteredConnection = { portId: 'a', counts, meteredRead: 0, meteredWritten: 0 };
    const b: MeteredConnection = { portId: 'b', counts: other, meteredRead: 0, meteredWritten: 0 };
    meter.track(a);
    meter.track(b);
    const move = (c: { bytesRead: number; bytesWritten: number }, n: number) => { c.bytesRead += n; c.bytesWritten += 2 * n; };
    const sample = (portId: string, intervalStart: number, n: number) =>
      ({ portId, intervalStart, bytesIn: BigInt(2 * n), bytesOut: BigInt(n) });
    move(counts, 10);
    meter.flush(a);
    move(other, 5);
    meter.flush(b);
    move(counts, 1);
    meter.flush(a);
    expect(meter.drainCounted()).toEqual([sample('a', start, 11), sample('b', start, 5)]);
    move(counts, 3); // the same interval after a drain: a new sample
    meter.flush(a);
    clock = start + TRAFFIC_INTERVAL_MS + 5; // the next interval
    move(counts, 7);
    meter.flush(a);
    move(counts, 2); // a flush dated in the earlier interval, after the later one began
    meter.flush(a, start + 10);
    move(counts, 1);
    meter.flush(a);
    expect(meter.drainCounted()).toEqual([sample('a', start, 5), sample('a', start + TRAFFIC_INTERVAL_MS, 8)]);
    expect(meter.drainCounted()).toEqual([]);
  });
});
