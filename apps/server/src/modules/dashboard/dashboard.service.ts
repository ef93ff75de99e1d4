import type { Language } from '@cellport/shared';
import type { DashboardResponse } from '@cellport/shared/schemas/dashboard';
import { portName } from '../notifications/index.js';
import type { DashboardRepository } from './dashboard.repository.js';

/** Ports whose term ends within this many days count as expiring soon. */
const EXPIRING_DAYS = 3;

/** What the dashboard takes from the traffic and notifications modules (their repositories, built by the root). */
export interface DashboardSources {
  traffic: { totalSince(userId: string, since: Date): Promise<DashboardResponse['traffic24h']> };
  notifications: { latest(userId: string, limit: number, language: Language): Promise<DashboardResponse['recentNotifications']> };
}

/** What the dashboard page shows at a glance: active and expiring ports, the last day's traffic, the latest notifications. */
export class DashboardService {
  constructor(private readonly ports: DashboardRepository, private readonly sources: DashboardSources) {}

  /**
   * `language`: the reader's (it may be read from the account), for the notifications and the ports' default names
   * (issue 27, item 12); asked once.
   */
  async summary(userId: string, language: () => Promise<Language>): Promise<DashboardResponse> {
    const reader = language();
    const [ports, traffic24h, recent, lng] = await Promise.all([
      this.ports.activePorts(userId, EXPIRING_DAYS),
      this.sources.traffic.totalSince(userId, new Date(Date.now() - 86_400_000)),
      reader.then((lng) => this.sources.notifications.latest(userId, 5, lng)),
      reader,
    ]);
    return {
      activePorts: ports.count,
      expiringSoon: ports.expiring.map((p) => ({ _id: p.id, modem_name: portName(p, lng), expiresAt: p.expires_at.toISOString() })),
      traffic24h,
      recentNotifications: recent,
    };
  }
}
