import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { hashToken } from '../../lib/tokens.js';

const LOGIN_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
const pick = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join('');

/** A fresh proxy login (unique in practice: 32^10 choices; the database index has the last word). */
export const newProxyLogin = () => `u${pick(LOGIN_ALPHABET, 10)}`;
export const newProxyPassword = () => pick(PASSWORD_ALPHABET, 14);
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
