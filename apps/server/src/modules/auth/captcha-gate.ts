import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../lib/app-error.js';
import { sign, unsign } from '../../lib/tokens.js';

export const CAPTCHA_COOKIE = 'cp_captcha';
export const CAPTCHA_PASS_TTL_MS = 30 * 60_000;

/**
 * "This browser passed the captcha": a signed HttpOnly cookie holding its own expiry. Stateless, so any instance
 * can check it; signed with the server secret, so it cannot be forged.
 */
export class CaptchaGate {
  constructor(private readonly config: Config) {}

  get enabled(): boolean {
    return this.config.CAPTCHA_PROVIDER !== 'off';
  }

  issue(reply: FastifyReply): void {
    const expiresAt = Date.now() + CAPTCHA_PASS_TTL_MS;
    reply.setCookie(CAPTCHA_COOKIE, sign(String(expiresAt), this.config.secret), {
      path: '/', httpOnly: true, sameSite: 'lax', secure: this.config.isProduction, maxAge: CAPTCHA_PASS_TTL_MS / 1000,
    });
  }

  passed(request: FastifyRequest): boolean {
    if (!this.enabled) return true;
    const cookie = request.cookies[CAPTCHA_COOKIE];
    if (!cookie || cookie.length > 200) return false;
    const value = unsign(cookie, this.config.secret);
    return value !== null && /^\d+$/.test(value) && Number(value) > Date.now();
  }

  /** Throws 403 CAPTCHA_REQUIRED for a browser that has not passed (when a captcha is on). */
  require(request: FastifyRequest): void {
    if (!this.passed(request)) throw new AppError('CAPTCHA_REQUIRED', 403);
  }
}
