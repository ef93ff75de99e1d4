import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';

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
    const row = await this.db
      .insertInto('mail_outbox')
      .values({ to_email: message.to, subject: message.subject, text: message.text, html: message.html })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (!this.transport) return;
    const transport = this.transport;
    // Delivery happens after the response: a slow mail server must not slow a sign-up.
    setImmediate(async () => {
      try {
        await transport.send(this.from, message);
        await this.db.updateTable('mail_outbox').set({ sent_at: new Date() }).where('id', '=', row.id).execute();
      } catch (err) {
        this.log.error({ err, to: message.to }, 'smtp delivery failed');
        await this.db.updateTable('mail_outbox').set({ error: String(err) }).where('id', '=', row.id).execute()
          .catch(() => {});
      }
    });
  }
}
