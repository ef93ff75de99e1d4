import type { MailMessage } from '../../integrations/mail/mailer.js';
import { emailTexts, type LinkEmailTexts } from './texts.js';

export type LinkEmailKind = 'confirm' | 'reset';

interface LinkEmail { kind: LinkEmailKind; language: string; to: string; name: string; link: string }

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
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

  const p = (s: string, style = '') => `<p style="margin:0 0 16px;${style}">${escapeHtml(s)}</p>`;
  const href = escapeHtml(link);
  const html = `<!doctype html>
<html lang="${language === 'cn' ? 'zh-CN' : escapeHtml(language)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(t.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1f2328;font-size:15px;line-height:1.5">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;padding:32px">
<tr><td>
<p style="margin:0 0 24px;font-size:20px;font-weight:700">Cellport</p>
${p(greeting)}
${p(t.intro)}
<p style="margin:24px 0"><a href="${href}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:600">${escapeHtml(t.button)}</a></p>
${p(t.expires)}
${p(t.ignore)}
${p(all.linkHint, 'color:#57606a;font-size:13px')}
<p style="margin:0 0 24px;font-size:13px;word-break:break-all"><a href="${href}" style="color:#1d4ed8">${href}</a></p>
${p(all.signature)}
${p(all.footer, 'color:#57606a;font-size:12px;margin:0')}
</td></tr></table>
</td></tr></table>
</body>
</html>`;
  return { to, subject: t.subject, text, html };
}
