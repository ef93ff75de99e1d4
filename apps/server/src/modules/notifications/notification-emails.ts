import type { AppContext } from '../../context.js';
import { notificationMail } from './notification-mail.js';
import type { NotificationsRepository } from './notifications.repository.js';

/** A pending e-mail older than this is picked up by the sweep (its NOTIFY was missed: restart, lost listener). */
const SWEEP_AGE_MS = 60_000;

/**
 * Mails notifications marked 'pending' once their transaction has committed. Every instance hears the commit;
 * the conditional update pending → sent lets exactly one of them send it. A sweep catches the ones whose
 * announcement was missed. A notification whose e-mail was written with it (notifications.service.ts, when the
 * caller knew the reader's address) is only handed to SMTP after the commit (`handWritten`).
 */
export class NotificationEmails {
  constructor(private readonly ctx: Pick<AppContext, 'mailer' | 'config' | 'log'>, private readonly repo: NotificationsRepository) {}

  async send(notificationId: string): Promise<boolean> {
    const claimed = await this.repo.claimEmail(notificationId);
    if (!claimed) return false;
    const message = notificationMail(this.ctx.config, claimed);
    if (!message) return false;
    await this.ctx.mailer.send(message);
    return true;
  }

  /** A notification's e-mail written in its transaction, handed to SMTP by the one instance that claims it. */
  handWritten(notificationId: string): Promise<boolean> {
    return this.ctx.mailer.handNotificationMail(notificationId);
  }

  /** Sends what is still pending after `olderThanMs` (0: everything pending). Returns how many were mailed. */
  async sweep(olderThanMs = SWEEP_AGE_MS): Promise<number> {
    let sent = await this.ctx.mailer.handMissedNotificationMails(olderThanMs);
    for (const id of await this.repo.pendingEmails(olderThanMs)) if (await this.send(id)) sent++;
    return sent;
  }
}
