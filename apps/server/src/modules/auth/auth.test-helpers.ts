import { createHash } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { TestApp } from '../../../test/helpers.js';

export const PASSWORD = 'Passw0rd!';

export interface UserOptions { email: string; password?: string; verified?: boolean; active?: boolean; totpSecret?: string | null; language?: string; name?: string }

/** A user row straight in the database (for tests of sign-in that are not about sign-up). */
export async function createUser(t: TestApp, o: UserOptions): Promise<string> {
  const row = await t.ctx.db.insertInto('users').values({
    email: o.email, name: o.name ?? 'Test User', password_hash: await hash(o.password ?? PASSWORD),
    is_verified: o.verified ?? true, is_active: o.active ?? true, totp_secret: o.totpSecret ?? null, language: o.language ?? 'en',
  }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** A native (urlencoded) form POST, as a browser sends it from our own page. */
export function postForm(t: TestApp, url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST', url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.config.publicUrl, ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
}

export function postJson(t: TestApp, url: string, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url, headers: { origin: t.config.publicUrl, ...headers }, payload: payload as object });
}

export interface OutboxMail { to: string; subject: string; text: string; html: string; createdAt: string }

export async function outbox(t: TestApp, to: string): Promise<OutboxMail[]> {
  const res = await t.app.inject(`/api/v1/dev/outbox?to=${encodeURIComponent(to)}`);
  return res.json() as OutboxMail[];
}

/** The first link in the newest e-mail to `to` that starts with `prefix`. */
export async function linkFromOutbox(t: TestApp, to: string, prefix: string): Promise<string> {
  const [mail] = await outbox(t, to);
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = mail?.text.match(new RegExp(`${escaped}\\S+`));
  if (!match) throw new Error(`no ${prefix} link in the e-mail to ${to}`);
  return match[0];
}

/** The signed-in user behind the session cookie a response set (or passed as a Cookie header), or null. */
export async function sessionUser(t: TestApp, cookieHeader: string) {
  const token = cookieHeader.replace(/^cp_session=/, '');
  return t.ctx.sessions.resolve(token);
}

export interface AltchaChallengeJson { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string }

/** What the browser does with WebCrypto: find n with sha256(salt + n) == challenge, send base64(JSON). */
export function solveAltcha(c: AltchaChallengeJson): string {
  for (let n = 0; n <= c.maxnumber; n++) {
    if (createHash('sha256').update(c.salt + n).digest('hex') === c.challenge) {
      return Buffer.from(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: n, salt: c.salt, signature: c.signature })).toString('base64');
    }
  }
  throw new Error('no solution');
}

/** Solves a fresh ALTCHA challenge from `remoteAddress` and returns the pass cookie (as a Cookie header value). */
export async function captchaPass(t: TestApp, remoteAddress = '127.0.0.1'): Promise<string> {
  const challenge = (await t.app.inject({ url: '/api/v1/captcha/challenge', remoteAddress })).json() as AltchaChallengeJson;
  const res = await t.app.inject({
    method: 'POST', url: '/api/v1/verify-re-captcha', remoteAddress,
    headers: { origin: t.config.publicUrl }, payload: { 'g-recaptcha-response': solveAltcha(challenge) },
  });
  const pass = res.cookies.find((c) => c.name === 'cp_captcha');
  if (!pass) throw new Error(`the captcha was not passed: ${res.body}`);
  return `cp_captcha=${pass.value}`;
}
