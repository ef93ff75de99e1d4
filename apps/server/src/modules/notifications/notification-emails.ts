import { isLanguage, FALLBACK_LANGUAGE } from '@cellport/shared';
import { sql } from 'kysely';
import type { AppContext } from '../../context.js';
import { isServiceMail, notificationLink } from './notifications.service.js';
import { renderNotificationEmail } from './notification-email.js';
import { unsubscribeToken } from './unsubscribe-token.js';

/** A pending e-mail older than this is picked up by the sweep (its NOTIFY was missed: restart, lost listener). */
const SWEEP_AGE_MS = 60_000;

/**
 * Mails notifications marked 'pending' once their transaction has committed. Every instance hears the commit;
 * the conditional update pending → sent lets exactly one of them send it. A sweep catches the ones whose
 * announcement was missed.
 */
export class NotificationEmails {
  constructor(private readonly ctx: Pick<AppContext, 'db' | 'mailer' | 'config' | 'log'>) {}

  async send(notificationId: string): Promise<boolean> {
    // The claim and its reader in one statement: every purchase mails, so a round trip here is one per purchase.
    const claimed = await this.ctx.db.updateTable('notifications').set({ email: 'sent' })
      .from('users')
      .whereRef('users.id', '=', 'notifications.user_id')
      .where('notifications.id', '=', notificationId).where('notifications.email', '=', 'pending')
      .returning(['notifications.user_id', 'notifications.text_key', 'notifications.text', 'notifications.params',
        'users.email', 'users.name', 'users.language', 'users.marketing_consent', 'users.is_active'])
      .executeTakeFirst();
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
    const rows = await this.ctx.db.selectFrom('notifications').select('id').where('email', '=', 'pending')
      .where('created_at', '<=', sql<Date>`now() - make_interval(secs => ${olderThanMs / 1000})`)
      .orderBy('created_at').limit(200).execute();
    let sent = 0;
    for (const row of rows) if (await this.send(row.id)) sent++;
    return sent;
  }
}
