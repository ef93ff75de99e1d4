import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../lib/app-error.js';
import { newToken, sign, unsign } from '../../lib/tokens.js';
import type { CaptchaPassesRepository } from './captcha-passes.repository.js';

export const CAPTCHA_COOKIE = 'cp_captcha';
export const CAPTCHA_PASS_TTL_MS = 30 * 60_000;
/** Gated requests one solved captcha pays for: a sign-in with its code step and the form post, or a sign-up. */
export const CAPTCHA_PASS_USES = 3;

/** Uses taken from a pass by one request; given back when the request turned out honest (refund). */
export interface CaptchaTicket { passId: string | null; taken: number }
const FREE: CaptchaTicket = { passId: null, taken: 0 };

/**
 * "This browser passed the captcha": a pass in the database (any instance can check it) named by a signed HttpOnly
 * cookie. Issue 26: the cookie alone used to be the pass, good for 30 minutes for anyone holding it; now a pass
 * works only from the address that solved the captcha, and for CAPTCHA_PASS_USES gated requests.
 */
export class CaptchaGate {
  private lastSweep = 0;
  constructor(private readonly config: Config, private readonly passes: CaptchaPassesRepository) {}

  get enabled(): boolean {
    return this.config.CAPTCHA_PROVIDER !== 'off';
  }

  async issue(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await this.sweep();
    const id = newToken(18);
    await this.passes.insert({ id, address: request.ip, usesLeft: CAPTCHA_PASS_USES, expiresAt: new Date(Date.now() + CAPTCHA_PASS_TTL_MS) });
    reply.setCookie(CAPTCHA_COOKIE, sign(id, this.config.secret), {
      path: '/', httpOnly: true, sameSite: 'lax', secure: this.config.isProduction, maxAge: CAPTCHA_PASS_TTL_MS / 1000,
    });
  }

  /** Whether this browser holds a live pass with uses left, from this address (always, with the captcha off). */
  async passed(request: FastifyRequest): Promise<boolean> {
    if (!this.enabled) return true;
    const id = this.passIdOf(request);
    if (!id) return false;
    return (await this.passes.usesLeft(id, request.ip)) !== null;
  }

  /**
   * Spends one use of this browser's pass, or all it has left (`all`: one attempt per solved captcha), or throws
   * 403 CAPTCHA_REQUIRED. Atomic, so parallel requests cannot share a use.
   */
  async require(request: FastifyRequest, spend: 'one' | 'all' = 'one'): Promise<CaptchaTicket> {
    if (!this.enabled) return FREE;
    const id = this.passIdOf(request);
    const taken = id ? await (spend === 'one' ? this.takeOne(id, request) : this.takeAll(id, request)) : 0;
    if (!id || taken === 0) throw new AppError('CAPTCHA_REQUIRED');
    return { passId: id, taken };
  }

  /** Gives the uses of a ticket back: a request that was not a guess (right password) costs nothing. */
  async refund(ticket: CaptchaTicket): Promise<void> {
    if (!ticket.passId || ticket.taken === 0) return;
    await this.passes.giveBack(ticket.passId, ticket.taken);
  }

  private async takeOne(id: string, request: FastifyRequest): Promise<number> {
    return (await this.passes.takeOne(id, request.ip)) ? 1 : 0;
  }

  /** Takes every use left; a concurrent spend in between makes this one come back empty (the browser solves again). */
  private async takeAll(id: string, request: FastifyRequest): Promise<number> {
    const usesLeft = await this.passes.usesLeft(id, request.ip);
    if (usesLeft === null) return 0;
    return (await this.passes.takeAll(id, usesLeft)) ? usesLeft : 0;
  }

  private passIdOf(request: FastifyRequest): string | null {
    const cookie = request.cookies[CAPTCHA_COOKIE];
    if (!cookie || cookie.length > 200) return null;
    return unsign(cookie, this.config.secret);
  }

  /** Expired passes are deleted at most once a minute, on the way to issuing a new one. */
  private async sweep(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    await this.passes.deleteExpired();
  }
}
