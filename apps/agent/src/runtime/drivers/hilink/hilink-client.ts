import { createHash } from 'node:crypto';
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { sleep } from '../modem-backend.js';

/** Errors the HiLink API answers with `<error><code>…</code></error>`. */
export const HILINK_ERRORS = {
  100002: 'not supported by this device',
  100003: 'no rights (the device wants a login)',
  100004: 'system busy',
  108001: 'wrong user name',
  108002: 'wrong password',
  108003: 'already logged in',
  108006: 'wrong user name or password',
  108007: 'too many login attempts; the device locks logins for a while',
  125001: 'wrong token',
  125002: 'wrong session',
  125003: 'wrong session token',
} as const;
const SESSION_ERRORS = new Set([125001, 125002, 125003]);
const BUSY = 100004;
const NO_RIGHTS = 100003;

export class HilinkError extends Error {
  constructor(readonly code: number, readonly path: string, base: string) {
    super(`HiLink ${base} ${path}: error ${code} (${HILINK_ERRORS[code as keyof typeof HILINK_ERRORS] ?? 'unknown error'})`);
  }
}

export interface HilinkClientOptions {
  /** The dongle's web address, e.g. http://192.168.8.1. */
  baseUrl: string;
  username?: string;
  password?: string;
  /** One request's limit: a hung API fails instead of hanging the agent. */
  timeoutMs?: number;
  /** Pauses between retries on 100004 (system busy); their count is the number of retries. */
  busyBackoffMs?: number[];
}

const parser = new XMLParser({ parseTagValue: false, ignoreDeclaration: true, trimValues: true });
const builder = new XMLBuilder({});

/**
 * The Huawei HiLink web API (E3372h, E8372, B-series): a session cookie and a verification token from
 * `webserver/SesTokInfo`; each write carries a token, and the device hands out the next ones in the
 * `__RequestVerificationToken` response header (several, separated by '#', after a login). On 125001–125003 the
 * client takes a new session (and logs in again) and repeats the request once; on 100004 it backs off and retries.
 */
export class HilinkClient {
  private session: string | null = null;
  private tokens: string[] = [];
  private loggedIn = false;
  private readonly base: string;
  private readonly timeoutMs: number;
  private readonly busyBackoffMs: number[];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: HilinkClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.busyBackoffMs = options.busyBackoffMs ?? [500, 1000, 2000, 4000];
  }

  /** GET /api/<path>; the `<response>` element's content. */
  get(path: string): Promise<Record<string, unknown>> { return this.serial(() => this.call('GET', path)); }

  /** POST /api/<path> with `<request>body</request>`; resolves with the response (usually 'OK'). */
  post(path: string, body: Record<string, unknown>): Promise<Record<string, unknown>> { return this.serial(() => this.call('POST', path, body)); }

  /** Forgets the session, e.g. after a reboot (the device does too). */
  reset(): void { this.session = null; this.tokens = []; this.loggedIn = false; }

  // One request at a time per dongle: the tokens are a sequence, and the devices dislike parallel calls.
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async call(method: 'GET' | 'POST', path: string, body?: Record<string, unknown>): Promise<Record<string, unknown>> {
    let renewed = false;
    for (let busy = 0; ; ) {
      try {
        if (!this.session) await this.openSession();
        return await this.once(method, path, body);
      } catch (err) {
        if (!(err instanceof HilinkError)) throw err;
        if ((SESSION_ERRORS.has(err.code) || (err.code === NO_RIGHTS && this.options.password && !this.loggedIn)) && !renewed) {
          renewed = true;
          this.reset();
          continue;
        }
        if (err.code === BUSY && busy < this.busyBackoffMs.length) {
          await sleep(this.busyBackoffMs[busy++]!);
          continue;
        }
        throw err;
      }
    }
  }

  private async openSession(): Promise<void> {
    const info = await this.once('GET', 'webserver/SesTokInfo');
    const ses = String(info.SesInfo ?? '');
    this.session = ses.includes('=') ? ses : `SessionID=${ses}`;
    this.tokens = [String(info.TokInfo ?? '')].filter(Boolean);
    this.loggedIn = false;
    if (this.options.password) await this.login();
  }

  /** Logs in with the scheme the device asks for (password_type 4: SHA-256 over user, hashed password and token). */
  private async login(): Promise<void> {
    const state = await this.once('GET', 'user/state-login').catch(() => ({} as Record<string, unknown>));
    if (String(state.State) === '0') { this.loggedIn = true; return; }
    const username = this.options.username ?? 'admin';
    const password = this.options.password ?? '';
    const type = String(state.password_type ?? '4');
    const encoded = type === '4'
      ? b64(sha256hex(username + b64(sha256hex(password)) + (this.tokens[0] ?? '')))
      : b64(password);
    await this.once('POST', 'user/login', { Username: username, Password: encoded, password_type: type });
    this.loggedIn = true;
  }

  private async once(method: 'GET' | 'POST', path: string, body?: Record<string, unknown>): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest' };
    if (this.session) headers.cookie = this.session;
    if (method === 'POST') {
      headers['content-type'] = 'application/x-www-form-urlencoded; charset=UTF-8';
      const token = this.tokens.shift();
      if (token) headers.__RequestVerificationToken = token;
    } else if (this.tokens[0]) {
      headers.__RequestVerificationToken = this.tokens[0];
    }
    const url = `${this.base}/api/${path}`;
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        method, headers, signal: AbortSignal.timeout(this.timeoutMs),
        body: body ? `<?xml version="1.0" encoding="UTF-8"?>${builder.build({ request: body }) as string}` : undefined,
      });
      text = await res.text();
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      if (e.name === 'TimeoutError' || e.name === 'AbortError') throw new Error(`HiLink ${this.base} ${path}: no answer within ${this.timeoutMs} ms`);
      throw new Error(`HiLink ${this.base} ${path}: ${e.cause?.code ?? e.message}`);
    }
    this.renew(res.headers);
    if (!res.ok) throw new Error(`HiLink ${this.base} ${path}: HTTP ${res.status}`);
    let doc: Record<string, unknown>;
    try {
      doc = parser.parse(text) as Record<string, unknown>;
    } catch {
      throw new Error(`HiLink ${this.base} ${path}: the answer is not XML`);
    }
    const error = doc.error as { code?: unknown } | undefined;
    if (error) throw new HilinkError(Number(error.code), path, this.base);
    const response = doc.response;
    if (response === undefined) throw new Error(`HiLink ${this.base} ${path}: the answer has no <response>`);
    return typeof response === 'object' && response !== null ? response as Record<string, unknown> : { value: response };
  }

  /** Takes the next tokens and a new session cookie from a response's headers (the device rotates them). */
  private renew(headers: Headers): void {
    const tokens = headers.get('__requestverificationtokenone') ?? headers.get('__requestverificationtoken');
    if (tokens) this.tokens = tokens.split('#').map((t) => t.trim()).filter(Boolean);
    const cookie = headers.get('set-cookie');
    const session = cookie && /SessionID=[^;]+/.exec(cookie)?.[0];
    if (session) this.session = session;
  }
}

const sha256hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
