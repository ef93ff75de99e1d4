import type { Database } from '../../db/database.js';

/** The development outbox's read of `mail_outbox` (the mailer writes it: integrations/mail): newest first. */
export class DevOutboxRepository {
  constructor(private readonly db: Database) {}

  async latest(limit: number, to?: string) {
    let query = this.db.selectFrom('mail_outbox').select(['to_email', 'subject', 'text', 'html', 'created_at'])
      .orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit);
    if (to) query = query.where('to_email', '=', to);
    return query.execute();
  }
}
