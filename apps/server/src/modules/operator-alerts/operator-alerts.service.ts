import type { OperatorAlertSettings, OperatorAlertSettingsPatch } from '@cellport/shared/schemas/admin/alerts';
import type { AuditActor, AuditLog } from '../audit/index.js';
import type { OperatorAlertsRepository } from './operator-alerts.repository.js';

/**
 * Each operator's own channels for the farm's alerts (issue 28, item 8) beside the console's bell: e-mail and their
 * linked Telegram chat (NotificationsService.alertOperators reads them). A change and its audit entry commit together.
 */
export class OperatorAlertsService {
  constructor(private readonly repo: OperatorAlertsRepository, private readonly audit: AuditLog) {}

  async get(userId: string): Promise<OperatorAlertSettings> {
    return this.repo.get(userId);
  }

  /** The signed-in operator's own settings: only what the patch names changes. */
  async update(actor: AuditActor, patch: OperatorAlertSettingsPatch): Promise<OperatorAlertSettings> {
    const userId = actor.adminId;
    return this.repo.transaction(async (tx) => {
      const before = await this.repo.get(userId, tx);
      const channels = { email: patch.email ?? before.email, telegram: patch.telegram ?? before.telegram };
      await this.repo.save(tx, userId, channels);
      await this.audit.record(tx, actor, {
        action: 'alerts.update', targetType: 'admin', targetId: userId,
        before: { email: before.email, telegram: before.telegram }, after: channels,
      });
      return { ...before, ...channels };
    });
  }
}
