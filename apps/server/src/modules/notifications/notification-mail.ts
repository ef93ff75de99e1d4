import { isLanguage, FALLBACK_LANGUAGE } from '@cellport/shared';
import type { AppContext } from '../../context.js';
import type { MailMessage } from '../../integrations/mail/mailer.js';
import { isServiceMail } from './mail-rules.js';
import { notificationLink } from './notification-view.js';
import { renderNotificationEmail } from './notification-email.js';
import { unsubscribeToken } from './unsubscribe-token.js';

/** What a notification's e-mail is made of: the notification and its reader as they are now. */
export interface MailableNotification {
  user_id: string; text_key: string; text: string; params: unknown;
  email: string; name: string; language: string; marketing_consent: boolean; is_active: boolean;
}

/** The links an e-mail carries: the site's address, and the secret that signs the unsubscribe link. */
export type MailLinks = Pick<AppContext['config'], 'publicUrl' | 'secret'>;

/** The notification's e-mail in its reader's language, or null when it is not to be mailed (inactive, or news without consent). */
export function notificationMail(links: MailLinks, n: MailableNotification): MailMessage | null {
  if (!n.is_active) return null;
  const mustMail = isServiceMail(n.text_key);
  // The consent may have been withdrawn between the notification and now.
  if (!mustMail && !n.marketing_consent) return null;
  const language = isLanguage(n.language) ? n.language : FALLBACK_LANGUAGE;
  const base = links.publicUrl;
  return renderNotificationEmail({
    to: n.email, name: n.name, language, textKey: n.text_key, text: n.text,
    dashboardUrl: `${base}/${language}${notificationLink(n.text_key, n.params as Record<string, unknown> | null) ?? ''}`,
    unsubscribeUrl: mustMail ? undefined : `${base}/api/v1/unsubscribe/${unsubscribeToken(n.user_id, links.secret)}`,
  });
}
