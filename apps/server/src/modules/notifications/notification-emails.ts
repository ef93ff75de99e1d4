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
    const claimed = await this.ctx.db.updateTable('notifications').set({ email: 'sent' })
      .where('id', '=', notificationId).where('email', '=', 'pending')
      .returning(['user_id', 'text_key', 'text', 'params']).executeTakeFirst();
    if (!claimed) return false;
    const user = await this.ctx.db.selectFrom('users').select(['email', 'name', 'language', 'marketing_consent', 'is_active'])
      .where('id', '=', claimed.user_id).executeTakeFirst();
    if (!user?.is_active) return false;
    const mustMail = isServiceMail(claimed.text_key);
    // The consent may have been withdrawn between the notification and now.
    if (!mustMail && !user.marketing_consent) return false;
    const language = isLanguage(user.language) ? user.language : FALLBACK_LANGUAGE;
    const base = this.ctx.config.publicUrl;
    await this.ctx.mailer.send(renderNotificationEmail({
      to: user.email, name: user.name, language, textKey: claimed.text_key, text: claimed.text,
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
