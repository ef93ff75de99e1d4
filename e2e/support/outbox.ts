// Reads e-mails from the server's dev outbox (GET /api/v1/dev/outbox?to=EMAIL, newest first; outside production only).
export interface OutboxMail { to: string; subject: string; text: string; html: string; createdAt: string }

export async function outbox(baseUrl: string, email: string): Promise<OutboxMail[]> {
  const response = await fetch(`${baseUrl}/api/v1/dev/outbox?to=${encodeURIComponent(email)}`);
  if (!response.ok) throw new Error(`GET /api/v1/dev/outbox answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as OutboxMail[];
}

/**
 * The first link matching `pattern` in the newest e-mail to `email` that has one. `pattern` is matched against the
 * text part (then the HTML part) of each e-mail. `after` skips e-mails created before that moment (so a second
 * request does not return the first link).
 *
 * Nothing to wait for: a link e-mail (confirmation, password reset) is written to the outbox before the request that
 * sends it is answered (AuthService.sendLink awaits the outbox row). Call this once the page has shown that answer.
 */
export async function outboxLink(baseUrl: string, email: string, pattern: RegExp, { after }: { after?: Date } = {}): Promise<string> {
  const seen = await outbox(baseUrl, email);
  for (const mail of seen) {
    if (after && new Date(mail.createdAt) < after) continue;
    const match = mail.text.match(pattern) ?? mail.html.match(pattern);
    if (match) return match[0].replace(/&amp;/g, '&');
  }
  const subjects = seen.map((m) => `  ${m.createdAt} ${m.subject}`).join('\n') || '  (none)';
  throw new Error(`no e-mail to ${email} with a link matching ${pattern}; the outbox holds:\n${subjects}`);
}
