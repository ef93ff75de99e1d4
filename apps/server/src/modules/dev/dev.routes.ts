import { z } from 'zod';
import type { App, AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';

const outboxItem = z.object({ to: z.string(), subject: z.string(), text: z.string(), html: z.string(), createdAt: z.string() });
const OUTBOX_LIMIT = 50;

/**
 * Development helpers, never in production. The outbox lets a person (and the browser tests) read the e-mails the
 * product sent without any mail server: GET /api/v1/dev/outbox?to=EMAIL, newest first.
 */
export function registerDev(app: App, { config, db }: AppContext): void {
  app.get('/api/v1/dev/outbox', {
    config: { rateLimit: { max: Math.max(config.RATE_LIMIT_AUTH_PER_MINUTE, 120), timeWindow: '1 minute' } },
    schema: {
      querystring: z.object({ to: z.string().max(254).optional() }),
      response: { 200: z.array(outboxItem) },
    },
  }, async (request) => {
    if (config.isProduction) throw new AppError('NOT_FOUND', 404);
    let query = db.selectFrom('mail_outbox').select(['to_email', 'subject', 'text', 'html', 'created_at'])
      .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(OUTBOX_LIMIT);
    const to = request.query.to?.trim().toLowerCase();
    if (to) query = query.where('to_email', '=', to);
    const rows = await query.execute();
    return rows.map((r) => ({ to: r.to_email, subject: r.subject, text: r.text, html: r.html, createdAt: r.created_at.toISOString() }));
  });
}
