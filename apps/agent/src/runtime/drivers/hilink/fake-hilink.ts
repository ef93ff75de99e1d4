import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

// Test support: a Huawei HiLink web API on 127.0.0.1, as the E3372h / B-series firmware answers it (XML, session
// cookie and rotating verification tokens, error codes, a data switch that takes a while, a reboot that takes the
// API away). Its public IP is what an IP-echo server reports for requests from the modem's egress address.

export interface FakeHilinkOptions {
  imei: string;
  publicIp: string;
  /** IPs the modem gets on each reconnect, in turn; once empty it keeps its IP (a collision). */
  nextIps?: string[];
  password?: string;
  username?: string;
  /** How long a data switch takes to disconnect / to connect (905 meanwhile). */
  switchMs?: number;
  /** How long a reboot keeps the API away. */
  rebootMs?: number;
  /** Runs as the data connection comes up with its IP, before the status says connected (the netns test's NAT). */
  onConnect?: (publicIp: string) => void | Promise<void>;
}

const xml = (inner: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${inner}`;
const errorXml = (code: number) => xml(`<error><code>${code}</code><message></message></error>`);

export class FakeHilink {
  readonly calls: string[] = [];
  /** Error codes answered to the next requests, one each (before anything else). */
  failNext: number[] = [];
  /** Accept connections and never answer. */
  hang = false;
  connection: 901 | 902 | 905 = 901;
  /** A dongle that never finishes connecting (no data on the SIM, a wrong APN): 905 after the switch goes on. */
  stuckConnecting = false;
  publicIp: string;
  readonly nextIps: string[];
  private sessions = new Set<string>();
  private tokens = new Set<string>();
  private loggedIn = new Set<string>();
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private timers: NodeJS.Timeout[] = [];
  port = 0;

  constructor(readonly options: FakeHilinkOptions) {
    this.publicIp = options.publicIp;
    this.nextIps = [...(options.nextIps ?? [])];
  }

  get url(): string { return `http://127.0.0.1:${this.port}`; }

  /** Reconnects (the data switch turned off) and reboots the device was asked for. */
  get reconnects(): number { return this.calls.filter((c) => c === 'POST dialup/mobile-dataswitch <dataswitch>0</dataswitch>').length; }
  get reboots(): number { return this.calls.filter((c) => c.startsWith('POST device/control')).length; }

  async start(port = 0): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.on('connection', (s) => { this.sockets.add(s); s.on('close', () => this.sockets.delete(s)); });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** The API goes away (connections refused) until start() again. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    await this.down();
  }

  /** Sessions the device forgets (as after an idle timeout): the next request gets 125002. */
  expireSessions(): void { this.sessions.clear(); this.tokens.clear(); this.loggedIn.clear(); }

  private later(ms: number, fn: () => void): void { this.timers.push(setTimeout(fn, ms)); }

  private newToken(): string {
    const t = randomBytes(16).toString('hex');
    this.tokens.add(t);
    return t;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    const path = (req.url ?? '').replace(/^\/api\//, '');
    this.calls.push(`${req.method} ${path}${body ? ` ${/<request>(.*)<\/request>/s.exec(body)?.[1] ?? ''}` : ''}`);
    if (this.hang) return;
    const send = (text: string, headers: Record<string, string> = {}) => {
      res.writeHead(200, { 'content-type': 'text/html', ...headers });
      res.end(text);
    };
    const forced = this.failNext.shift();
    if (forced) return send(errorXml(forced));

    if (path === 'webserver/SesTokInfo') {
      const session = randomBytes(12).toString('hex');
      this.sessions.add(session);
      return send(xml(`<response><SesInfo>SessionID=${session}</SesInfo><TokInfo>${this.newToken()}</TokInfo></response>`));
    }
    const session = /SessionID=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    if (!session || !this.sessions.has(session)) return send(errorXml(125002));
    const token = req.headers.__requestverificationtoken as string | undefined;
    if (req.method === 'POST') {
      if (!token || !this.tokens.has(token)) return send(errorXml(125003));
      this.tokens.delete(token);
    }
    const next: Record<string, string> = req.method === 'POST' ? { __RequestVerificationToken: this.newToken() } : {};
    const ok = () => send(xml('<response>OK</response>'), next);

    if (path === 'user/state-login') {
      return send(xml(`<response><State>${this.loggedIn.has(session) ? 0 : -1}</State><Username></Username><password_type>4</password_type></response>`));
    }
    if (path === 'user/login') {
      const user = /<Username>(.*)<\/Username>/.exec(body)?.[1];
      const pass = /<Password>(.*)<\/Password>/.exec(body)?.[1];
      const sha = (s: string) => createHash('sha256').update(s).digest('hex');
      const b64 = (s: string) => Buffer.from(s).toString('base64');
      const expected = b64(sha((this.options.username ?? 'admin') + b64(sha(this.options.password ?? '')) + token));
      if (user !== (this.options.username ?? 'admin') || pass !== expected) return send(errorXml(108006), next);
      // A login opens a new session and hands out several tokens at once.
      this.sessions.delete(session);
      const fresh = randomBytes(12).toString('hex');
      this.sessions.add(fresh);
      this.loggedIn.add(fresh);
      const tokens = [this.newToken(), this.newToken(), this.newToken()];
      return send(xml('<response>OK</response>'), { __RequestVerificationTokenone: tokens.join('#'), 'set-cookie': `SessionID=${fresh}; path=/; HttpOnly` });
    }
    if (this.options.password && !this.loggedIn.has(session)) return send(errorXml(100003));

    switch (path) {
      case 'device/information':
        return send(xml(`<response><DeviceName>E3372h-320</DeviceName><SerialNumber>G4PDW19</SerialNumber><Imei>${this.options.imei}</Imei>`
          + `<HardwareVersion>CL4E3372HM</HardwareVersion><SoftwareVersion>22.328.62.00.1217</SoftwareVersion><WanIPAddress>10.${this.connection === 901 ? '77.1.2' : '0.0.0'}</WanIPAddress></response>`));
      case 'device/signal':
        return send(xml('<response><pci>312</pci><rssi>-67dBm</rssi><rsrp>-95dBm</rsrp><rsrq>-9.0dB</rsrq><sinr>12dB</sinr><mode>7</mode></response>'));
      case 'net/current-plmn':
        return send(xml('<response><State>0</State><FullName>Vodafone DE</FullName><ShortName>Vodafone</ShortName><Numeric>26202</Numeric></response>'));
      case 'monitoring/status':
        return send(xml(`<response><ConnectionStatus>${this.connection}</ConnectionStatus><SignalIcon>4</SignalIcon><CurrentNetworkType>19</CurrentNetworkType>`
          + `<CurrentNetworkTypeEx>101</CurrentNetworkTypeEx><WanIPAddress>${this.connection === 901 ? '10.77.1.2' : ''}</WanIPAddress></response>`));
      case 'dialup/mobile-dataswitch': {
        const on = /<dataswitch>1<\/dataswitch>/.test(body);
        const ms = this.options.switchMs ?? 50;
        if (on) {
          this.connection = 905;
          this.later(ms, () => {
            if (this.stuckConnecting) return;
            const ip = this.nextIps.shift() ?? this.publicIp;
            void Promise.resolve(this.options.onConnect?.(ip)).then(() => {
              this.connection = 901;
              this.publicIp = ip;
            });
          });
        } else {
          this.later(ms, () => { this.connection = 902; });
        }
        return ok();
      }
      case 'device/control':
        ok();
        // The device answers, then its API is gone until it has booted; it comes back connected with a new IP.
        this.later(20, () => {
          void this.down().then(() => this.later(this.options.rebootMs ?? 500, () => {
            this.expireSessions();
            this.connection = 901;
            this.publicIp = this.nextIps.shift() ?? this.publicIp;
            void this.start(this.port);
          }));
        });
        return;
      default:
        return send(errorXml(100002));
    }
  }
}

/**
 * An IP-echo server on 127.0.0.1 for fake modems: a request from a modem's egress address (127.0.0.x) is answered
 * with that modem's public IP while it is connected; from any other address it fails, so a measurement that did not
 * leave from the modem's egress cannot pass. The host itself (127.0.0.1, never a modem's egress) is answered its own
 * address, as a real echo answers anyone: the agent asks on its own route whether the echo is up.
 */
export async function startEchoServer(byEgress: Map<string, () => string | null>): Promise<{ url: string; close(): Promise<void>; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    const from = req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '';
    seen.push(from);
    const ip = from === '127.0.0.1' ? from : byEgress.get(from)?.();
    if (!ip) { res.writeHead(502).end('no route'); return; }
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`${ip}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/ip`,
    seen,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
