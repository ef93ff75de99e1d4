import type { MailMessage } from '../../integrations/mail/mailer.js';
import { emailTexts, type LinkEmailTexts } from './texts.js';

export type LinkEmailKind = 'confirm' | 'reset';

interface LinkEmail { kind: LinkEmailKind; language: string; to: string; name: string; link: string }

export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** One paragraph of an e-mail's HTML. */
export const emailParagraph = (s: string, style = '') => `<p style="margin:0 0 16px;${style}">${escapeHtml(s)}</p>`;

/** The e-mail's one call to action, as a button. */
export const emailButton = (href: string, label: string) =>
  `<p style="margin:24px 0"><a href="${escapeHtml(href)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:600">${escapeHtml(label)}</a></p>`;

/**
 * The HTML frame every e-mail shares (inline styles only: mail clients drop <style>): the page, a centred white
 * card with the Cellport name, then `body` (already HTML).
 */
export function emailFrame(language: string, title: string, body: string): string {
  return `<!doctype html>
<html lang="${language === 'cn' ? 'zh-CN' : escapeHtml(language)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1f2328;font-size:15px;line-height:1.5">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;padding:32px">
<tr><td>
<p style="margin:0 0 24px;font-size:20px;font-weight:700">Cellport</p>
${body}
</td></tr></table>
</td></tr></table>
</body>
</html>`;
}

const fill = (template: string, vars: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => vars[key] ?? '');

/**
 * An e-mail whose point is one link (confirm the address, reset the password), in the person's language,
 * as HTML (inline styles only: mail clients drop <style>) and as plain text.
 */
export function renderLinkEmail({ kind, language, to, name, link }: LinkEmail): MailMessage {
  const all = emailTexts(language);
  const t: LinkEmailTexts = all[kind];
  const greeting = fill(all.greeting, { name });

  const text = [greeting, '', t.intro, '', `${t.button}: ${link}`, '', t.expires, t.ignore, '', `— ${all.signature}`, '', all.footer]
    .join('\n');

  const p = emailParagraph;
  const href = escapeHtml(link);
  const html = emailFrame(language, t.subject, `${p(greeting)}
${p(t.intro)}
${emailButton(link, t.button)}
${p(t.expires)}
${p(t.ignore)}
${p(all.linkHint, 'color:#57606a;font-size:13px')}
<p style="margin:0 0 24px;font-size:13px;word-break:break-all"><a href="${href}" style="color:#1d4ed8">${href}</a></p>
${p(all.signature)}
${p(all.footer, 'color:#57606a;font-size:12px;margin:0')}`);
  return { to, subject: t.subject, text, html };
}
