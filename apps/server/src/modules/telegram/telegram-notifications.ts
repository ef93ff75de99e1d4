import { TELEGRAM_OPERATOR_KINDS } from '@cellport/shared/schemas/telegram';
import type { FastifyBaseLogger } from 'fastify';
import { renderNotification, type NotificationParams } from '../notifications/index.js';
import type { TelegramBot } from './telegram-bot.js';
import type { TelegramRepository } from './telegram.repository.js';
import { languageOf } from './telegram-texts.js';

/** The channel a database trigger announces a notification on when a linked chat wants it (migration 2026_12_05_1200). */
export const TELEGRAM_CHANNEL = 'cellport_telegram';
/** A pending message older than this is picked up by the sweep (its NOTIFY was missed: restart, lost listener). */
const SWEEP_AGE_MS = 60_000;

/**
 * Sends notifications to linked chats after their transaction committed, in the customer's language now (rendered
 * from the key and params). Every instance hears the announcement; the conditional update pending → sent lets
 * exactly one of them send it, as with e-mails (notification-emails.ts). A sweep catches missed announcements.
 */
export class TelegramNotifications {
  constructor(private readonly deps: { repo: TelegramRepository; bot: TelegramBot; log: FastifyBaseLogger }) {}

  /** Sends each notification its trigger announces after the commit (a background subscription: background.ts). */
  listen(database: { listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> }): Promise<() => Promise<void>> {
    return database.listen(TELEGRAM_CHANNEL, (id) => {
      this.send(id).catch((err: unknown) => this.deps.log.error({ err }, 'telegram: notification failed'));
    });
  }

  async send(notificationId: string): Promise<boolean> {
    const gateway = this.deps.bot.current();
    if (!gateway) return false; // no bot here: left pending for the sweep of an instance that has one
    const { repo } = this.deps;
    const claimed = await repo.claimNotification(notificationId);
    if (!claimed) return false;
    const target = await repo.chatOf(claimed.user_id);
    // Unlinked, or the kind switched off, since the notification was written (operators' alerts are not a kind).
    const wanted = target?.kinds.includes(claimed.text_key) || (TELEGRAM_OPERATOR_KINDS as readonly string[]).includes(claimed.text_key);
    if (!target?.is_active || !wanted) return false;
    const text = renderNotification(languageOf(target.language), claimed.text_key, claimed.params as NotificationParams);
    try {
      await gateway.send(target.chat_id, text);
      return true;
    } catch (err) {
      this.deps.log.error({ err, notificationId }, 'telegram: sending a notification failed');
      await repo.markFailed(notificationId);
      return false;
    }
  }

  /** Sends what is still pending after `olderThanMs` (0: everything pending). Returns how many were sent. */
  async sweep(olderThanMs = SWEEP_AGE_MS): Promise<number> {
    if (!this.deps.bot.current()) return 0;
    let sent = 0;
    for (const id of await this.deps.repo.pending(olderThanMs)) if (await this.send(id)) sent++;
    return sent;
  }
}
