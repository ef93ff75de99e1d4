import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parsePortRange, parseReservedPorts, randomPorts } from './source-ports.js';
import { access, basic, destroyTestClients, EGRESS, httpConnect, readUntil, socksConnect, startModem } from './test-support.js';

// Target connections name their source port (source-ports.ts) instead of leaving the egress bind to the kernel's
// search; a port that is taken is retried with another, and the last try is the kernel's own choice.

describe('source ports: the kernel\'s range', () => {
  it('reads the range and the reserved ports as /proc writes them, and falls back to Linux\'s default', () => {
    expect(parsePortRange('32768\t60999\n')).toEqual({ low: 32768, high: 60999 });
    expect(parsePortRange('1024 65535')).toEqual({ low: 1024, high: 65535 });
    expect(parsePortRange('')).toEqual({ low: 32768, high: 60999 });
    expect(parsePortRange('60999 32768')).toEqual({ low: 32768, high: 60999 });
    expect(parseReservedPorts('\n')).toEqual([]);
    expect(parseReservedPorts('8080,40000-40010\n')).toEqual([{ low: 8080, high: 8080 }, { low: 40000, high: 40010 }]);
  });

  it('draws ports inside the range and never a reserved one; the kernel chooses when nearly all are reserved', () => {
    const next = randomPorts({ low: 40000, high: 40009 }, [{ low: 40000, high: 40004 }]);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) seen.add(next());
    seen.delete(0); // a run of four reserved draws, left to the kernel
    expect([...seen].sort()).toEqual([40005, 40006, 40007, 40008, 40009]);
    expect(randomPorts({ low: 40000, high: 40001 }, [{ low: 40000, high: 40001 }])()).toBe(0);
  });
});

/** A TCP target that records the source port of each connection and echoes. */
interface PortTarget { port: number; sourcePorts: number[]; server: Server; sockets: Set<Socket> }

async function startPortTarget(): Promise<PortTarget> {
  const sourcePorts: number[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    sourcePorts.push(socket.remotePort!);
    socket.pipe(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { port: (server.address() as AddressInfo).port, sourcePorts, server, sockets };
}

/** A port on the egress address that a listener holds (a named bind to it fails with EADDRINUSE). */
async function heldEgressPort(): Promise<Server> {
  const server = createServer();
  server.listen(0, EGRESS);
  await once(server, 'listening');
  return server;
}

/** A port on the egress address that nothing holds now. */
async function freeEgressPort(): Promise<number> {
  const server = await heldEgressPort();
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const P1 = access('p1');
const AUTH = basic(P1.login, P1.password);

describe('source ports: the dialer', () => {
  let target: PortTarget;
  let held: Server;
  let heldPort: number;
  /** What the next target connections' source ports will be asked to be, in order; then the last one again. */
  let plan: number[] = [];
  const asked: number[] = [];
  const sourcePort = () => {
    const port = plan.length > 1 ? plan.shift()! : plan[0]!;
    asked.push(port);
    return port;
  };
  let modem: Awaited<ReturnType<typeof startModem>>;

  beforeAll(async () => {
    target = await startPortTarget();
    held = await heldEgressPort();
    heldPort = (held.address() as AddressInfo).port;
    modem = await startModem({ ports: [P1], sourcePort });
  });
  afterAll(async () => {
    await modem.close();
    for (const s of target.sockets) s.destroy();
    await new Promise((resolve) => target.server.close(resolve));
    await new Promise((resolve) => held.close(resolve));
  });
  afterEach(async () => {
    await destroyTestClients();
    asked.length = 0;
    target.sourcePorts.length = 0;
  });

  async function tunnel(): Promise<Socket> {
    const { socket, status } = await httpConnect(modem.http, `127.0.0.1:${target.port}`, AUTH);
    expect(status).toBe(200);
    socket.write('ping');
    await readUntil(socket, (d) => d.includes('ping'));
    return socket;
  }

  it('a CONNECT tunnel leaves from the source port named', async () => {
    const port = await freeEgressPort();
    plan = [port];
    await tunnel();
    expect(target.sourcePorts).toEqual([port]);
  });

  it('a port a listener holds is retried with the next one named', async () => {
    const port = await freeEgressPort();
    plan = [heldPort, port];
    await tunnel();
    expect(asked).toEqual([heldPort, port]);
    expect(target.sourcePorts).toEqual([port]);
  });

  it('a port whose connection to the same target is open is retried (the four-tuple is taken)', async () => {
    const first = await freeEgressPort();
    plan = [first];
    await tunnel();
    const second = await freeEgressPort();
    plan = [first, second];
    await tunnel(); // the first tunnel is still open: egress:first → target is in use
    expect(asked).toEqual([first, first, second]);
    expect(target.sourcePorts).toEqual([first, second]);
  });

  it('when every named port is taken, the last try is the kernel\'s choice (SOCKS5 too)', async () => {
    plan = [heldPort];
    const socket = await socksConnect(modem.socks, '127.0.0.1', target.port, { userId: P1.login, password: P1.password });
    socket.write('ping');
    await readUntil(socket, (d) => d.includes('ping'));
    expect(asked).toEqual([heldPort, heldPort, heldPort]);
    expect(target.sourcePorts).toHaveLength(1);
    expect(target.sourcePorts[0]).not.toBe(heldPort);
  });
});
