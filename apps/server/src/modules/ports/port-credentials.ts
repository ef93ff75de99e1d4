import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { PROXY_LOGIN_PREFIX_LENGTH } from '@cellport/shared/schemas/catalog';
import { hashToken } from '../../lib/tokens.js';

const LOGIN_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
const pick = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join('');

/**
 * A fresh proxy login (unique in practice: 32^10 choices; the database index has the last word). It has no dot, so
 * it never equals a chosen login, which carries its account's prefix and a dot (decision 035).
 */
export const newProxyLogin = () => `u${pick(LOGIN_ALPHABET, 10)}`;
/** An account's prefix of chosen logins: 32^5 choices, unique by the database's index. */
export const newProxyLoginPrefix = () => pick(LOGIN_ALPHABET, PROXY_LOGIN_PREFIX_LENGTH);
/**
 * A fresh proxy password: 14 letters and digits (about 81 bits), never ':' or '@', with at least one of each kind, so
 * it passes proxyPasswordSchema when a form or a script sends it back.
 */
export function newProxyPassword(): string {
  for (;;) {
    const password = pick(PASSWORD_ALPHABET, 14);
    if (/[A-Za-z]/.test(password) && /[0-9]/.test(password)) return password;
  }
}
export const newRotationNonce = () => randomBytes(12).toString('base64url');

/**
 * The rotation-link token: HMAC(secret, portId:nonce). Its owner can see it again at any time, yet the database
 * holds only the nonce and the sha256 of the token, so a leaked table alone opens no link. A new nonce
 * invalidates the old link.
 */
export function rotationToken(secret: string, portId: string, nonce: string): string {
  return createHmac('sha256', secret).update(`rotation:${portId}:${nonce}`).digest('base64url').slice(0, 32);
}
export const rotationTokenHash = (secret: string, portId: string, nonce: string) =>
  hashToken(rotationToken(secret, portId, nonce));
