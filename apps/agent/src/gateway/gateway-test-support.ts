import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { SignJWT } from 'jose';
import type { ProxyKind } from '@cellport/shared/schemas/gateway-protocol';
import { GatewayLink } from '../link/gateway-link.js';
import type { TestModem } from '../proxy/test-support.js';
import { silentLog } from '../proxy/test-support.js';
import type { Logger } from '../proxy/types.js';
import { kernelRelay } from '../relay/kernel-relay.js';
import { Gateway } from './gateway.js';

// The gateway tests' parts: a trust key pair and tickets signed as the server signs them, a gateway on loopback,
// an agent's link that serves one test modem's two ports, and a TCP relay that can cut the link like a dropped line.

export interface TestTrust { publicKey: KeyObject; sign(input: TicketInput): Promise<string> }
export interface TicketInput {
  gatewayId: string; hostId: string; epoch: number; ports: Array<{ port: number; kind: ProxyKind }>; expiresIn?: string;
  /** The agent's link key the ticket binds (the link passes its own when it asks for a ticket). */
  linkKey: string;
}

export function testTrust(): TestTrust {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    publicKey,
    sign: (t) => new SignJWT({ epoch: t.epoch, ports: t.ports, cnf: { jwk: { kty: 'OKP', crv: 'Ed25519', x: t.linkKey } } })
      .setProtectedHeader({ alg: 'EdDSA' })
      .setSubject(t.hostId).setAudience(t.gatewayId).setIssuedAt().setExpirationTime(t.expiresIn ?? '1h').sign(privateKey),
  };
}

export const GATEWAY_ID = '8b0f3c1e-4a5d-4f6e-9b7a-0c1d2e3f4a5b';

/** Where the tests build the kernel relay (shared by test processes: a build appears whole, host-build.ts). */
const NATIVE_DIR = join(tmpdir(), 'cellport-test-native');

/**
 * Whether the tests' gateways relay pooled connections in the kernel: yes, as `npm run gateway` does, except in
 * gateway-js-relay.test.ts, which runs gateway.test.ts again with the JavaScript relay.
 */
export const kernelRelayInTests = (): boolean => process.env.CELLPORT_TEST_GATEWAY_RELAY !== 'js';

/**
 * A gateway as `npm run gateway` starts one: with the kernel relay (decision 050; a machine that cannot build it fails
 * the test), unless `kernelRelay: null` or kernelRelayInTests() ask for the JavaScript relay.
 */
export async function startGateway(
  trust: TestTrust, options: { now?: () => number; log?: Logger; linkPort?: number; offerPoolHello?: boolean; kernelRelay?: null } = {},
): Promise<Gateway> {
  const relay = options.kernelRelay === null || !kernelRelayInTests() ? null : await kernelRelay(NATIVE_DIR);
  const gateway = new Gateway({
    kernelRelay: relay,
    id: GATEWAY_ID, trustKey: trust.publicKey, linkHost: '127.0.0.1', linkPort: options.linkPort ?? 0, listenHost: '127.0.0.1',
    log: options.log ?? silentLog, ...(options.now ? { now: options.now } : {}),
    ...(options.offerPoolHello === undefined ? {} : { offerPoolHello: options.offerPoolHello }),
  });
  await gateway.start();
  return gateway;
}

/** The gateway's ports for a test modem: numbers the modem does not listen on itself. */
export interface ModemPorts { http: number; socks: number }

/** An agent's link serving `modem` for the ports it has at the gateway. */
export function linkModem(
  linkUrl: string, modem: TestModem, ports: ModemPorts, ticket: (linkKey: string) => Promise<string>, poolSize?: number,
): GatewayLink {
  const link = new GatewayLink({
    linkUrl, ticket, log: silentLog, ...(poolSize === undefined ? {} : { poolSize }),
    route: (port) => port === ports.http ? (s) => modem.acceptStream(s, 'http')
      : port === ports.socks ? (s) => modem.acceptStream(s, 'socks') : null,
  });
  link.start();
  return link;
}

/** A TCP relay in front of the gateway's link port: cut() drops every connection through it, as a line going down. */
export class LinkCutter {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;
  /** The first bytes (up to 32, as latin1) of every connection the agent opened through it, in order. */
  readonly openings: string[] = [];

  constructor(private readonly target: number) {
    this.server = createServer((client) => {
      const upstream = connect({ host: '127.0.0.1', port: this.target });
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {});
      }
      client.once('data', (chunk: Buffer) => this.openings.push(chunk.subarray(0, 32).toString('latin1')));
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
  }

  async start(): Promise<string> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.port = (this.server.address() as AddressInfo).port;
    return `http://127.0.0.1:${this.port}`;
  }

  cut(): void {
    for (const s of this.sockets) s.destroy();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
