import { escapeHtml } from '../../lib/emails/render.js';
import { notificationEmailTexts } from './notification-email.js';

/** The small page an unsubscribe link opens, in the customer's language. */
export function unsubscribePage(language: string, ok: boolean, dashboardUrl: string): string {
  const t = notificationEmailTexts(language).unsubscribe;
  const title = ok ? t.title : t.invalidTitle;
  const text = ok ? t.text : t.invalidText;
  return `<!doctype html>
<html lang="${language === 'cn' ? 'zh-CN' : escapeHtml(language)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} · Cellport</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1f2328;font-size:16px;line-height:1.5">
<main style="max-width:520px;margin:48px auto;background:#fff;border-radius:8px;padding:32px">
<p style="margin:0 0 16px;font-size:20px;font-weight:700">Cellport</p>
<h1 style="font-size:22px;margin:0 0 12px">${escapeHtml(title)}</h1>
<p style="margin:0 0 24px">${escapeHtml(text)}</p>
<p style="margin:0"><a href="${escapeHtml(dashboardUrl)}" style="color:#1d4ed8;font-weight:600">${escapeHtml(t.back)}</a></p>
</main>
</body>
</html>`;
}
