import type { MailMessage } from '../../integrations/mail/mailer.js';
import { emailButton, emailFrame, emailParagraph, escapeHtml } from '../../lib/emails/render.js';
import { emailTexts } from '../../lib/emails/texts.js';

/** The part of emails.json this module adds (packages/shared/locales/<lng>/emails.json). */
export interface NotificationEmailTexts {
  notification: {
    subject_payment_received: string; subject_expiring: string; subject_expired: string; subject_other: string;
    subject_support: string; subject_support_operator: string; subject_support_assigned: string; subject_operator_alert: string;
    subject_payment_completed: string; subject_replacement: string; subject_replacement_queued: string; subject_service: string;
    subject_subscription_upcoming: string; subject_subscription_failed: string; subject_subscription_ended: string;
    button: string; button_support: string; button_console: string; consentNote: string; unsubscribe: string;
  };
  unsubscribe: { title: string; text: string; back: string; invalidTitle: string; invalidText: string };
}
export const notificationEmailTexts = (language: string) =>
  emailTexts(language) as unknown as ReturnType<typeof emailTexts> & NotificationEmailTexts;

function subjectKey(textKey: string): keyof NotificationEmailTexts['notification'] {
  if (textKey === 'payment_received' || textKey === 'payment_unfulfilled') return 'subject_payment_received';
  if (textKey === 'purchase_completed' || textKey === 'renewal_completed' || textKey === 'auto_renew_completed') return 'subject_payment_completed';
  if (textKey === 'port_replaced' || textKey === 'port_replaced_offline') return 'subject_replacement';
  if (textKey === 'port_replacement_queued') return 'subject_replacement_queued';
  if (textKey === 'port_released') return 'subject_expired';
  if (['modem_down', 'modem_up', 'quota_warning', 'quota_reached', 'webhook_disabled'].includes(textKey)) return 'subject_service';
  if (textKey === 'expiry_reminder_3d' || textKey === 'expiry_reminder_1d' || textKey === 'auto_renew_short_balance') return 'subject_expiring';
  if (textKey === 'port_expired') return 'subject_expired';
  if (textKey === 'support_reply') return 'subject_support';
  if (textKey === 'subscription_charge_upcoming') return 'subject_subscription_upcoming';
  if (textKey === 'subscription_charge_failed') return 'subject_subscription_failed';
  if (textKey === 'subscription_ended') return 'subject_subscription_ended';
  if (textKey === 'support_ticket_new' || textKey === 'support_customer_reply') return 'subject_support_operator';
  if (textKey === 'support_assigned') return 'subject_support_assigned';
  if (textKey.startsWith('operator_')) return 'subject_operator_alert';
  return 'subject_other';
}

interface NotificationEmail {
  to: string; name: string; language: string; textKey: string; text: string; dashboardUrl: string;
  /** Set for e-mails sent under the marketing consent: the link that turns it off. */
  unsubscribeUrl?: string | undefined;
}

/** One notification as an e-mail in the customer's language (HTML with inline styles, and plain text). */
export function renderNotificationEmail(m: NotificationEmail): MailMessage {
  const all = notificationEmailTexts(m.language);
  const t = all.notification;
  const subject = t[subjectKey(m.textKey)];
  const greeting = all.greeting.replace('{{name}}', m.name);
  const button = m.textKey.startsWith('support_') ? t.button_support : m.textKey.startsWith('operator_') ? t.button_console : t.button;
  const text = [
    greeting, '', m.text, '', `${button}: ${m.dashboardUrl}`, '', `— ${all.signature}`, '',
    ...(m.unsubscribeUrl ? [t.consentNote, `${t.unsubscribe}: ${m.unsubscribeUrl}`, ''] : []),
    all.footer,
  ].join('\n');
  const p = emailParagraph;
  const html = emailFrame(m.language, subject, `${p(greeting)}
${p(m.text)}
${emailButton(m.dashboardUrl, button)}
${p(all.signature)}
${m.unsubscribeUrl ? `${p(t.consentNote, 'color:#57606a;font-size:12px')}<p style="margin:0 0 16px;font-size:12px"><a href="${escapeHtml(m.unsubscribeUrl)}" style="color:#1d4ed8">${escapeHtml(t.unsubscribe)}</a></p>` : ''}
${p(all.footer, 'color:#57606a;font-size:12px;margin:0')}`);
  return { to: m.to, subject, text, html };
}
