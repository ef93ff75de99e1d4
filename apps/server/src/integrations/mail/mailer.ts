import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database.js';
import { addToOutbox, claimNotificationMail, markFailed, markSent, unclaimedNotificationMails } from './mail-outbox.repository.js';

export interface MailMessage { to: string; subject: string; text: string; html: string }
export interface Transport { send(from: string, message: MailMessage): Promise<void> }

/**
 * Every e-mail is first written to the outbox table (so nothing is lost and, without SMTP, a person can read it
 * at /dev/mailbox); with a transport it is then handed to SMTP and marked sent. A notification's e-mail is written
 * in the notification's own transaction (mail-outbox.repository.ts `notificationMailInsert`) and handed over after
 * its commit by the instance that claims it (`handNotificationMail`); without a transport that costs nothing.
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
    this.hand(id, message);
  }

  /** Hands a committed notification's e-mail to SMTP, once whichever instances hear of it; true when this one did. */
  async handNotificationMail(notificationId: string): Promise<boolean> {
    if (!this.transport) return false;
    const claimed = await claimNotificationMail(this.db, notificationId);
    if (!claimed) return false;
    const { id, ...message } = claimed;
    this.hand(id, message);
    return true;
  }

  /** The notifications' e-mails no instance claimed after `olderThanMs` (their NOTIFY was missed), handed now. */
  async handMissedNotificationMails(olderThanMs: number): Promise<number> {
    if (!this.transport) return 0;
    let handed = 0;
    for (const id of await unclaimedNotificationMails(this.db, olderThanMs)) if (await this.handNotificationMail(id)) handed++;
    return handed;
  }

  private hand(id: string, message: MailMessage): void {
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
