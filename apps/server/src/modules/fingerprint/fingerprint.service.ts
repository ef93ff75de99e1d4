import { compareFingerprint, type FingerprintCheckResponse } from '@cellport/shared/schemas/fingerprint';
import { AppError, notFound } from '../../lib/app-error.js';
import { portFingerprint } from '../ports/index.js';
import { EchoUnreachable, echoThroughPort } from './echo-through-port.js';
import type { FingerprintRepository } from './fingerprint.repository.js';

/** Each check opens a connection through the port and costs the echo a p0f read: a few a minute per customer. */
export const FINGERPRINT_CHECKS_PER_MINUTE = 6;

/** "What a site sees" (issue 30, item 5): a customer's port checked against the fingerprint echo. */
export class FingerprintCheckService {
  constructor(
    private readonly repo: FingerprintRepository,
    private readonly settings: { echoUrl: string | undefined; timeoutMs: number },
    /**
     * Resolves true once the host's agent serves the port's desired settings as they are now (not its neighbours' on
     * the same host), false past the time a change takes (hosts/host-serves-desired.ts; the composition root passes it).
     */
    private readonly portServesDesired: (hostId: string, portId: string) => Promise<boolean>,
  ) {}

  /**
   * Opens a connection through the customer's own port (never another's: the port is looked up by their id) to the
   * echo, and compares what it saw with the port's active preset.
   */
  async check(userId: string, portId: string): Promise<FingerprintCheckResponse> {
    const port = await this.repo.portToCheck(userId, portId);
    if (!port) throw notFound();
    if (!this.settings.echoUrl) throw new AppError('FINGERPRINT_ECHO_NOT_CONFIGURED');
    // Offline (its host's agent left or fell silent, or the modem itself dropped): no connection can go through it,
    // and an offline agent reports no state either, so waiting for one would only end in "still applying".
    if (!port.modem_online) throw new AppError('MODEM_OFFLINE');
    // A preset chosen a moment ago: the check reports it only once the host's agent serves it (not the one before).
    if (!(await this.portServesDesired(port.host_id, port.id))) {
      // The agent may be busy or briefly away; a client (the dashboard, an API script) may retry after this long.
      throw new AppError('FINGERPRINT_STILL_APPLYING', undefined, undefined, { retryAfter: 3 });
    }
    const { active } = portFingerprint(port.id, port.fingerprint, port.modem_fingerprint, port.tariff_fingerprint, port.host_fingerprint);
    let seen;
    try {
      seen = await echoThroughPort({ host: port.host, httpPort: port.http_port, login: port.proxy_login, password: port.proxy_password },
        this.settings.echoUrl, this.settings.timeoutMs);
    } catch (err) {
      if (err instanceof EchoUnreachable) throw new AppError('FINGERPRINT_CHECK_FAILED', 502, undefined, { reason: err.message });
      throw err;
    }
    return { preset: active, ...compareFingerprint(active, seen), seen, checkedAt: new Date().toISOString() };
  }
}
