import { PORT_HISTORY_IPS, UPTIME_WINDOWS, type PortHistory, type UptimeWindow } from '@cellport/shared/schemas/port-history';
import { notFound } from '../../lib/app-error.js';
import type { PortHistoryRepository } from './port-history.repository.js';
import { uptimeRatio } from './uptime.js';

const HOUR = 3_600_000;

/** A port's uptime over 24 h, 7 d and 30 d and its last IPs, counted from when it got its current modem. */
export class PortHistoryService {
  constructor(private readonly repo: PortHistoryRepository) {}

  async history(userId: string, portId: string, now = new Date()): Promise<PortHistory> {
    const port = await this.repo.portOnModem(userId, portId);
    if (!port) throw notFound();
    const longest = Math.max(...Object.values(UPTIME_WINDOWS)) * HOUR;
    const [changes, ips] = await Promise.all([
      this.repo.healthChanges(port.modemId, new Date(Math.max(now.getTime() - longest, port.since.getTime()))),
      this.repo.ips(port.modemId, port.since, PORT_HISTORY_IPS),
    ]);
    const window = (name: UptimeWindow) => {
      const from = new Date(Math.max(now.getTime() - UPTIME_WINDOWS[name] * HOUR, port.since.getTime()));
      return { ratio: uptimeRatio(changes, port.health, from, now), from: from.toISOString() };
    };
    return {
      uptime: { day: window('day'), week: window('week'), month: window('month') },
      ips: ips.map((r) => ({ ip: r.ip, at: r.at.toISOString() })),
    };
  }
}
