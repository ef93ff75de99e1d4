import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { kernelRelay, type KernelRelay } from '../relay/kernel-relay.js';
import {
  access, basic, closed, destroyTestClients, EGRESS, httpConnect, readUntil, seenThrough, socksConnect, startModem, startTargets,
  type Targets, type TestModem,
} from './test-support.js';

// Tunnels relayed in the kernel (ModemProxy.relayTunnel with the relay of decision 050; issue 31, the proxy's CPU per
// GB): a CONNECT and a SOCKS5 tunnel carry their bytes both ways through the relay thread, the meter counts them for
// the port, an idle one ends after the idle timeout (its socket's own timer sees nothing), a busy one does not, a port
// with a bandwidth cap stays in JavaScript, and a port that gets a cap or goes away ends its kernel tunnels. Built on
// this machine as the agent builds it: a machine without a C compiler or Node's headers fails here.

let dataDir: string;
let relay: KernelRelay;
let targets: Targets;
let modem: TestModem;
const free = access('k1');
const capped = access('k2', { limits: { bandwidthBytesPerSecond: 10_000_000, maxConnections: 100, quota: { state: 'ok' } } });
const IDLE_MS = 400;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cellport-kernel-tunnels-'));
  relay = await kernelRelay(dataDir);
  targets = await startTargets();
  modem = await startModem({ ports: [free, capped], kernelRelay: relay, limits: { idleTimeoutMs: IDLE_MS } });
}, 60_000);
afterEach(destroyTestClients);
afterAll(async () => {
  await modem.close();
  await targets.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Sends `payload` through the tunnel to the echo and reads it back (after the echo's first line). */
async function echo(socket: Socket, payload: Buffer): Promise<Buffer> {
  socket.write(payload);
  const data = await readUntil(socket, (d) => d.length >= payload.length);
  return data.subarray(0, payload.length);
}

describe('tunnels relayed in the kernel', () => {
  it('a CONNECT tunnel is handed to the relay, carries 4 MiB both ways, and the meter counts it for its port', async () => {
    const before = modem.counters.kernelTunnels;
    const { socket, status } = await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, basic(free.login, free.password));
    expect(status).toBe(200);
    expect(await seenThrough(socket)).toBe(EGRESS);
    expect(modem.counters.kernelTunnels).toBe(before + 1);
    const payload = randomBytes(4 * 1024 * 1024);
    expect((await echo(socket, payload)).equals(payload)).toBe(true);
    socket.end();
    await closed(socket);
    // Counted when the tunnel's client socket closed: at least the payload each way, plus the request and the answer.
    await expect.poll(() => modem.meter.totalsNow().get('k1')?.bytesOut ?? 0).toBeGreaterThanOrEqual(payload.length);
    expect(modem.meter.totalsNow().get('k1')!.bytesIn).toBeGreaterThanOrEqual(payload.length);
  });

  it('a SOCKS5 tunnel is handed to the relay too', async () => {
    const before = modem.counters.kernelTunnels;
    const socket = await socksConnect(modem.socks, '127.0.0.1', targets.tcpPort, { userId: free.login, password: free.password });
    expect(await seenThrough(socket)).toBe(EGRESS);
    expect(modem.counters.kernelTunnels).toBe(before + 1);
    const payload = randomBytes(64 * 1024);
    expect((await echo(socket, payload)).equals(payload)).toBe(true);
  });

  it('an idle kernel tunnel ends after the idle timeout; one that keeps moving bytes does not', async () => {
    const idle = (await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, basic(free.login, free.password))).socket;
    const busy = (await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, basic(free.login, free.password))).socket;
    await seenThrough(idle);
    await seenThrough(busy);
    // The busy one echoes a byte every IDLE_MS / 4 until the idle one has closed, and once more after it.
    let rounds = 0;
    let idleClosed = false;
    idle.once('close', () => { idleClosed = true; });
    while (!idleClosed || rounds < 1) {
      expect((await echo(busy, Buffer.from('x'))).toString()).toBe('x');
      if (idleClosed) rounds++;
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS / 4));
    }
    expect(busy.destroyed).toBe(false);
  });

  it('a port with a bandwidth cap is relayed in JavaScript (the cap applies); a cap set later ends its kernel tunnels', async () => {
    const before = modem.counters.kernelTunnels;
    const cappedTunnel = (await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, basic(capped.login, capped.password))).socket;
    expect(await seenThrough(cappedTunnel)).toBe(EGRESS);
    expect(modem.counters.kernelTunnels).toBe(before);
    const kernel = (await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, basic(free.login, free.password))).socket;
    await seenThrough(kernel);
    expect(modem.counters.kernelTunnels).toBe(before + 1);
    modem.setPorts([{ ...free, limits: capped.limits! }, capped]);
    await closed(kernel);
    // The capped port's JavaScript tunnel goes on.
    expect((await echo(cappedTunnel, Buffer.from('still here'))).toString()).toBe('still here');
    modem.setPorts([free, capped]);
  });

  it('a port that goes away ends its kernel tunnels', async () => {
    const socket = (await httpConnect(modem.http, `127.0.0.1:${targets.tcpPort}`, basic(free.login, free.password))).socket;
    await seenThrough(socket);
    modem.setPorts([capped]);
    await closed(socket);
    modem.setPorts([free, capped]);
  });
});
