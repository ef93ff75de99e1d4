// Reads e-mails from the server's dev outbox (GET /api/v1/dev/outbox?to=EMAIL, newest first; outside production only).
export interface OutboxMail { to: string; subject: string; text: string; html: string; createdAt: string }

export async function outbox(baseUrl: string, email: string): Promise<OutboxMail[]> {
  const response = await fetch(`${baseUrl}/api/v1/dev/outbox?to=${encodeURIComponent(email)}`);
  if (!response.ok) throw new Error(`GET /api/v1/dev/outbox answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as OutboxMail[];
}

/**
 * The first link matching `pattern` in the newest e-mail to `email` that has one, waiting up to `timeoutMs`
 * for it to arrive. `pattern` is matched against the text part (then the HTML part) of each e-mail.
 * `after` skips e-mails created before that moment (so a second request does not return the first link).
 */
export async function outboxLink(
  baseUrl: string, email: string, pattern: RegExp, { timeoutMs = 10_000, after }: { timeoutMs?: number; after?: Date } = {},
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let seen: OutboxMail[] = [];
  for (;;) {
    seen = await outbox(baseUrl, email);
    for (const mail of seen) {
      if (after && new Date(mail.createdAt) < after) continue;
      const match = mail.text.match(pattern) ?? mail.html.match(pattern);
      if (match) return match[0].replace(/&amp;/g, '&');
    }
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const subjects = seen.map((m) => `  ${m.createdAt} ${m.subject}`).join('\n') || '  (none)';
  throw new Error(`no e-mail to ${email} with a link matching ${pattern}; the outbox holds:\n${subjects}`);
}
