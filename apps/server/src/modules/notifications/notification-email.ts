import type { MailMessage } from '../../integrations/mail/mailer.js';
import { emailTexts } from '../../lib/emails/texts.js';

/** The part of emails.json this module adds (packages/shared/locales/<lng>/emails.json). */
export interface NotificationEmailTexts {
  notification: {
    subject_payment_received: string; subject_expiring: string; subject_expired: string; subject_other: string;
    button: string; consentNote: string; unsubscribe: string;
  };
  unsubscribe: { title: string; text: string; back: string; invalidTitle: string; invalidText: string };
}
export const notificationEmailTexts = (language: string) =>
  emailTexts(language) as unknown as ReturnType<typeof emailTexts> & NotificationEmailTexts;

export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

function subjectKey(textKey: string): keyof NotificationEmailTexts['notification'] {
  if (textKey === 'payment_received') return 'subject_payment_received';
  if (textKey === 'expiry_reminder_3d' || textKey === 'expiry_reminder_1d' || textKey === 'auto_renew_short_balance') return 'subject_expiring';
  if (textKey === 'port_expired') return 'subject_expired';
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
  const text = [
    greeting, '', m.text, '', `${t.button}: ${m.dashboardUrl}`, '', `— ${all.signature}`, '',
    ...(m.unsubscribeUrl ? [t.consentNote, `${t.unsubscribe}: ${m.unsubscribeUrl}`, ''] : []),
    all.footer,
  ].join('\n');
  const p = (s: string, style = '') => `<p style="margin:0 0 16px;${style}">${escapeHtml(s)}</p>`;
  const html = `<!doctype html>
<html lang="${m.language === 'cn' ? 'zh-CN' : escapeHtml(m.language)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1f2328;font-size:15px;line-height:1.5">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;padding:32px">
<tr><td>
<p style="margin:0 0 24px;font-size:20px;font-weight:700">Cellport</p>
${p(greeting)}
${p(m.text)}
<p style="margin:24px 0"><a href="${escapeHtml(m.dashboardUrl)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:600">${escapeHtml(t.button)}</a></p>
${p(all.signature)}
${m.unsubscribeUrl ? `${p(t.consentNote, 'color:#57606a;font-size:12px')}<p style="margin:0 0 16px;font-size:12px"><a href="${escapeHtml(m.unsubscribeUrl)}" style="color:#1d4ed8">${escapeHtml(t.unsubscribe)}</a></p>` : ''}
${p(all.footer, 'color:#57606a;font-size:12px;margin:0')}
</td></tr></table>
</td></tr></table>
</body>
</html>`;
  return { to: m.to, subject, text, html };
}
