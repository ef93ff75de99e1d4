import { isLanguage, FALLBACK_LANGUAGE } from '@cellport/shared';
import type { AppContext } from '../../context.js';
import { notificationLink } from './notification-view.js';
import { isServiceMail } from './notifications.service.js';
import { renderNotificationEmail } from './notification-email.js';
import type { NotificationsRepository } from './notifications.repository.js';
import { unsubscribeToken } from './unsubscribe-token.js';

/** A pending e-mail older than this is picked up by the sweep (its NOTIFY was missed: restart, lost listener). */
const SWEEP_AGE_MS = 60_000;

/**
 * Mails notifications marked 'pending' once their transaction has committed. Every instance hears the commit;
 * the conditional update pending → sent lets exactly one of them send it. A sweep catches the ones whose
 * announcement was missed.
 */
export class NotificationEmails {
  constructor(private readonly ctx: Pick<AppContext, 'mailer' | 'config' | 'log'>, private readonly repo: NotificationsRepository) {}

  async send(notificationId: string): Promise<boolean> {
    const claimed = await this.repo.claimEmail(notificationId);
    if (!claimed?.is_active) return false;
    const mustMail = isServiceMail(claimed.text_key);
    // The consent may have been withdrawn between the notification and now.
    if (!mustMail && !claimed.marketing_consent) return false;
    const language = isLanguage(claimed.language) ? claimed.language : FALLBACK_LANGUAGE;
    const base = this.ctx.config.publicUrl;
    await this.ctx.mailer.send(renderNotificationEmail({
      to: claimed.email, name: claimed.name, language, textKey: claimed.text_key, text: claimed.text,
      dashboardUrl: `${base}/${language}${notificationLink(claimed.text_key, claimed.params as Record<string, unknown> | null) ?? ''}`,
      unsubscribeUrl: mustMail ? undefined : `${base}/api/v1/unsubscribe/${unsubscribeToken(claimed.user_id, this.ctx.config.secret)}`,
    }));
    return true;
  }

  /** Sends what is still pending after `olderThanMs` (0: everything pending). Returns how many were mailed. */
  async sweep(olderThanMs = SWEEP_AGE_MS): Promise<number> {
    let sent = 0;
    for (const id of await this.repo.pendingEmails(olderThanMs)) if (await this.send(id)) sent++;
    return sent;
  }
}
