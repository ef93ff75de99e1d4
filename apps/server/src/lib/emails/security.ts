import type { MailMessage } from '../../integrations/mail/mailer.js';
import { emailFrame, emailParagraph } from './render.js';
import { emailTexts } from './texts.js';

/** What changed on the account: each change tells its owner by e-mail, so a stranger's change does not go unseen. */
export type SecurityChange = 'password' | 'twoFactorOn' | 'twoFactorOff' | 'recoveryCodeUsed' | 'recoveryCodesNew';

/** The part of emails.json this module reads (packages/shared/locales/<lng>/emails.json). */
interface SecurityEmailTexts {
  security: Record<SecurityChange, { subject: string; intro: string }> & { notYou: string };
}

/** The notice of a security change, in the person's language, as HTML and plain text. */
export function renderSecurityEmail(
  change: SecurityChange, user: { email: string; name: string; language: string }, values: Record<string, string> = {},
): MailMessage {
  const all = emailTexts(user.language) as ReturnType<typeof emailTexts> & SecurityEmailTexts;
  const texts = all.security[change];
  const t = { subject: texts.subject, intro: texts.intro.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole) };
  const greeting = all.greeting.replace('{{name}}', user.name);
  const text = [greeting, '', t.intro, '', all.security.notYou, '', `— ${all.signature}`, '', all.footer].join('\n');
  const p = emailParagraph;
  const html = emailFrame(user.language, t.subject, `${p(greeting)}
${p(t.intro)}
${p(all.security.notYou)}
${p(all.signature)}
${p(all.footer, 'color:#57606a;font-size:12px;margin:0')}`);
  return { to: user.email, subject: t.subject, text, html };
}
