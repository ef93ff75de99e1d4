import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';
import { addToOutbox, markFailed, markSent } from './mail-outbox.repository.js';

export interface MailMessage { to: string; subject: string; text: string; html: string }
export interface Transport { send(from: string, message: MailMessage): Promise<void> }

/**
 * Every e-mail is first written to the outbox table (so nothing is lost and, without SMTP, a person can read it
 * at /dev/mailbox); with a transport it is then handed to SMTP and marked sent.
 */
export class Mailer {
  constructor(
    private readonly db: Database,
    private readonly from: string,
    private readonly transport: Transport | null,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(message: MailMessage): Promise<void> {
    const id = await addToOutbox(this.db, message);
    if (!this.transport) return;
    const transport = this.transport;
    // Delivery happens after the response: a slow mail server must not slow a sign-up.
    setImmediate(async () => {
      try {
        await transport.send(this.from, message);
        await markSent(this.db, id);
      } catch (err) {
        this.log.error({ err, to: message.to }, 'smtp delivery failed');
        await markFailed(this.db, id, String(err)).catch(() => {});
      }
    });
  }
}
