import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@cellport/shared/schemas/webhooks';

/** A new Standard Webhooks secret: `whsec_` and 24 random bytes in base64. */
export const newWebhookSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString('base64')}`;

/**
 * `webhook-signature` for one message: `v1,` and the base64 HMAC-SHA256, under the secret's decoded key, of
 * `<webhook-id>.<webhook-timestamp>.<body>` (https://www.standardwebhooks.com, "Signature scheme").
 */
export function signWebhook(secret: string, msgId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${msgId}.${timestamp}.${body}`).digest('base64')}`;
}

/** The secret must be read back to sign, so it is stored encrypted (AES-256-GCM) under a key from the server's secret. */
export class WebhookSecretBox {
  private readonly key: Buffer;
  constructor(serverSecret: string) { this.key = createHash('sha256').update(`cellport:webhooks:${serverSecret}`).digest(); }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
  }

  open(sealed: string): string {
    const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv!);
    decipher.setAuthTag(tag!);
    return Buffer.concat([decipher.update(data!), decipher.final()]).toString('utf8');
  }
}
