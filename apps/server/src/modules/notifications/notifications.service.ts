import { FALLBACK_LANGUAGE, isLanguage, type Language } from '@cellport/shared';
import type { OperatorAlertKey } from '@cellport/shared/schemas/admin/alerts';
import { OPERATOR_MESSAGE_MAX } from '@cellport/shared/schemas/notifications';
import type { Tx } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { mailsTo } from './mail-rules.js';
import { notificationMail, type MailLinks } from './notification-mail.js';
import { renderNotification, type NotificationParams, type NotificationType } from './notification-view.js';
import type { AlongsideCtes, NotificationsRepository } from './notifications.repository.js';
import { portNameText } from './port-name.js';

/** How many modems an operator alert names one by one; the rest are counted. */
const OPERATOR_ALERT_MODEMS = 10;

/** Operator message texts per language; English is required and stands in for a missing language. */
export type OperatorTexts = { en: string } & Partial<Record<Language, string>>;

/**
 * Whom a notification speaks to: their language, and whether they agreed to mail beyond the essentials. With their
 * address, name and standing too, the e-mail is written in the notification's own transaction (no statements after
 * its commit: issue 31, item 3); without, it is marked pending and mailed after the commit (notification-emails.ts).
 */
export interface Recipient {
  language: string; marketing_consent: boolean;
  email?: string | undefined; name?: string | undefined; is_active?: boolean | undefined;
}

/**
 * Stores notifications (key and params, rendered in the reader's language when read, and the text in the
 * customer's language for the e-mail and the realtime push), bumps their poll version and announces the
 * notification to their open dashboards — all in the caller's transaction, so nothing is shown or mailed for a
 * change that rolled back. E-mails go out after the commit (notification-emails.ts).
 */
export class NotificationsService {
  /** `links`: what an e-mail written with its notification links to; without them every e-mail waits for the commit. */
  constructor(private readonly repo: NotificationsRepository, private readonly links?: MailLinks) {}

  /**
   * Pass the caller's transaction so the notification commits (or not) with what it tells about, and the
   * customer's language and consent when the caller has already read them.
   */
  async notify(userId: string, type: NotificationType, key: string, params: NotificationParams, tx?: Tx, recipient?: Recipient): Promise<void> {
    if (!tx) return this.repo.transaction((own) => this.notify(userId, type, key, params, own, recipient));
    const user: Recipient | undefined = recipient ?? await this.repo.recipient(tx, userId);
    if (!user) return;
    await this.write(tx, userId, user, type, key, params);
  }

  /**
   * The same, in one statement with the caller's own CTEs (`alongside`, e.g. a purchase's ports: a round trip fewer).
   * The caller has read the recipient, so the statement, theirs included, always runs.
   */
  notifyAlongside<R>(userId: string, type: NotificationType, key: string, params: NotificationParams, tx: Tx, recipient: Recipient, alongside: AlongsideCtes): Promise<R[]> {
    return this.write<R>(tx, userId, recipient, type, key, params, alongside);
  }

  private async write<R>(tx: Tx, userId: string, user: Recipient, type: NotificationType, key: string, params: NotificationParams, alongside?: AlongsideCtes): Promise<R[]> {
    const text = renderNotification(user.language, key, params);
    const mail = mailsTo(key, user);
    const { email, name, is_active: isActive } = user;
    if (mail && this.links && email !== undefined && name !== undefined && isActive !== undefined) {
      const written = notificationMail(this.links, {
        user_id: userId, text_key: key, text, params, email, name, is_active: isActive,
        language: user.language, marketing_consent: user.marketing_consent,
      });
      return this.repo.insert<R>(tx, userId, { type, key, params, text, mail: false, written: written ?? undefined }, alongside);
    }
    return this.repo.insert<R>(tx, userId, { type, key, params, text, mail }, alongside);
  }

  /**
   * A modem went offline or came back (issue 14, item 5): each customer with an active port on it hears of it once
   * per change. 'Back online' goes only to ports told 'offline' (the last availability notice of the port), and
   * 'offline' is not repeated, so a modem that flaps between heartbeats says each thing once. `silentMinutes`: offline
   * because its host's agent has not been heard from for that long (the sweep), which is all that is known; the
   * text says so (issue 28, item 3).
   */
  async modemAvailability(modemIds: string[], online: boolean, silentMinutes?: number): Promise<number> {
    if (modemIds.length === 0) return 0;
    const key = online ? 'modem_up' : 'modem_down';
    return this.repo.transaction(async (tx) => {
      const ports = await this.repo.activePortsOnModems(tx, modemIds);
      let sent = 0;
      for (const port of ports) {
        const last = await this.repo.lastAvailabilityNotice(tx, port.user_id, port.id);
        if (online ? last !== 'modem_down' : last === 'modem_down') continue;
        const params: NotificationParams = { name: portNameText(port), port: port.id };
        if (!online && silentMinutes !== undefined) Object.assign(params, { cause: 'host_silent', minutes: silentMinutes });
        await this.notify(port.user_id, 'other', key, params, tx, port);
        sent++;
      }
      await this.alertModems(tx, modemIds, online);
      return sent;
    });
  }

  /**
   * The operators hear of the same changes: one alert per host and change, naming the modems (offline ones with the
   * health checks' reason). A modem's `health_alerted` flips in the same statement that picks it, so each outage is
   * told once and its end once, whichever instance and however often it is recorded; one alert per host, not per
   * modem, so a farm's outage is a few messages, not a mail storm.
   */
  private async alertModems(tx: Tx, modemIds: string[], online: boolean): Promise<void> {
    const flipped = await this.repo.flipModemsAlerted(tx, modemIds, online);
    if (flipped.length === 0) return;
    const hosts = await this.repo.hostNames(tx, [...new Set(flipped.map((m) => m.host_id))]);
    for (const host of hosts) {
      const modems = flipped.filter((m) => m.host_id === host.id).sort((a, b) => a.imei.localeCompare(b.imei));
      const named = modems.slice(0, OPERATOR_ALERT_MODEMS)
        .map((m) => (!online && m.health_reason ? `${m.imei} (${m.health_reason.slice(0, 200)})` : m.imei));
      const list = named.join('; ') + (modems.length > named.length ? `; +${modems.length - named.length}` : '');
      await this.alertOperators(tx, online ? 'operator_modems_up' : 'operator_modems_down', { host: host.name, modems: list });
    }
  }

  /**
   * An alert to every active operator (issue 28, item 8), in their language: in the console's bell always, by e-mail
   * as each chose (operator_alert_settings; no row: on), and to their linked Telegram chat as each chose (the
   * database trigger reads the same setting). A service message: no marketing consent asked, no unsubscribe link.
   */
  async alertOperators(tx: Tx, key: OperatorAlertKey, params: NotificationParams): Promise<void> {
    for (const op of await this.repo.activeOperators(tx)) {
      await this.repo.insert(tx, op.id, { type: 'other', key, params, text: renderNotification(op.language, key, params), mail: op.email ?? true });
    }
  }

  /**
   * A message from the operator to some customers or to everyone, each in their own language. One transaction
   * per chunk of customers keeps a broadcast to many from holding one long transaction.
   */
  async sendOperatorMessage(userIds: string[] | 'all', texts: OperatorTexts): Promise<number> {
    const clean = Object.fromEntries(Object.entries(texts)
      .map(([lng, text]) => [lng, String(text ?? '').trim().slice(0, OPERATOR_MESSAGE_MAX)])
      .filter(([, text]) => text)) as Partial<Record<Language, string>>;
    if (!clean.en) throw new Error('an operator message needs an English text');
    const CHUNK = 200;
    let sent = 0;
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      if (userIds !== 'all' && !userIds.length) break;
      const users = await this.repo.activeUsersAfter(after, CHUNK, userIds);
      if (!users.length) break;
      await this.repo.transaction(async (tx) => {
        for (const u of users) {
          const text = clean[isLanguage(u.language) ? u.language : FALLBACK_LANGUAGE] ?? clean.en!;
          // Every language's text is kept, so the message reads in whichever language the dashboard is open in.
          await this.repo.insert(tx, u.id, {
            type: 'other', key: 'operator_message', params: { text: clean as OperatorTexts }, text, mail: u.marketing_consent,
          });
        }
      });
      sent += users.length;
      after = users[users.length - 1]!.id;
      if (users.length < CHUNK) break;
    }
    return sent;
  }

  /**
   * The console's message (POST /admin/notifications) to one customer or to all. A broadcast is sent in chunks (their
   * own transactions), so `record` (its audit entry) runs once the sending is done, told the number reached.
   */
  async sendFromConsole(to: string, texts: OperatorTexts, record: (tx: Tx, sent: number) => Promise<void>): Promise<number> {
    if (to !== 'all' && !await this.repo.userExists(to)) throw new AppError('CUSTOMER_NOT_FOUND');
    const sent = await this.sendOperatorMessage(to === 'all' ? 'all' : [to], texts);
    await this.repo.transaction((tx) => record(tx, sent));
    return sent;
  }
}
