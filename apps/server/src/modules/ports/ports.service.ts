import { LANGUAGES, type Language } from '@cellport/shared';
import { CATALOG_MESSAGES, type Port, type PortPatchRequest } from '@cellport/shared/schemas/catalog';
import { whitelistRangeProblem } from '@cellport/shared/schemas/whitelist-ranges';
import type { JobQueue } from '../../jobs/queue.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { portName } from '../notifications/index.js';
import { reschedulePortRotation } from './interval-rotation.js';
import { hostCapability } from '@cellport/shared/schemas/host-protocol';
import { newRotationNonce, rotationToken, rotationTokenHash } from './port-credentials.js';
import type { PortsRepository } from './ports.repository.js';
import { chosenProxyLogin } from './proxy-logins.js';
import type { RotationRepository } from './rotation.repository.js';
import { sharedRotationRefusal } from './rotation.service.js';
import { assertNoWhitelistOverlap } from './whitelist-conflicts.js';

/** Settings a customer changes on their own ports. */
export class PortsService {
  constructor(
    private readonly repository: PortsRepository,
    /** The rotation chains' due times (a new interval reschedules) and the shared modems' schedule. */
    private readonly rotations: RotationRepository,
    private readonly secret: string,
    private readonly publicUrl: string,
    /** Reschedules the automatic rotation when the interval changes. */
    private readonly jobs: JobQueue,
  ) {}

  async list(userId: string, lng: Language): Promise<Port[]> {
    return this.repository.list(userId, lng);
  }

  /** The customer's ports that carry this tag (GET /api/v1/modems?tag=). */
  async listTagged(userId: string, lng: Language, tag: string): Promise<Port[]> {
    return (await this.repository.list(userId, lng)).filter((port) => port.tags.includes(tag));
  }

  async update(userId: string, portId: string, patch: PortPatchRequest, lng: Language): Promise<Port> {
    const port = await this.repository.ownPortSettings(userId, portId);
    if (!port) throw notFound();
    const set: Record<string, unknown> = {};
    // A name the customer types is theirs, shown as typed from then on; the default name sent back unchanged (in any
    // language, as the list showed it) stays the default, shown in each reader's language (issue 27, item 12).
    if (patch.modem_name !== undefined) {
      const name = patch.modem_name.trim();
      if (port.default_number === null || !LANGUAGES.some((l) => portName(port, l) === name)) Object.assign(set, { name, default_number: null });
    }
    // The login as the list shows it, sent back unchanged, stays as it is (a login from before decision 035 too).
    if (patch.login !== undefined && patch.login !== port.proxy_login) set.proxy_login = await chosenProxyLogin(this.repository, userId, patch.login);
    if (patch.password !== undefined) set.proxy_password = patch.password;
    if (patch.autoRenew !== undefined) set.auto_renew = patch.autoRenew;
    let whitelist: string[] | undefined;
    if (patch.whitelist !== undefined) {
      whitelist = [...new Set(patch.whitelist.map((e) => e.trim()).filter(Boolean))];
      for (const entry of whitelist) {
        const problem = whitelistRangeProblem(entry);
        if (problem) throw new AppError('VALIDATION', 400, CATALOG_MESSAGES[problem]);
      }
      set.whitelist = JSON.stringify(whitelist);
    }
    // Tags arrive trimmed and lower case (portTagSchema); kept once each and sorted, so lists and filters agree.
    if (patch.tags !== undefined) set.tags = [...new Set(patch.tags)].sort();
    if (patch.note !== undefined) set.note = patch.note;
    if (patch.fingerprint !== undefined) {
      // A preset its host cannot apply would only make the port refuse connections: said now, with the host's reason.
      // Going back to native or to the default is always allowed.
      const host = hostCapability(port.host_fingerprint);
      if (patch.fingerprint !== null && patch.fingerprint !== 'native' && !host.available) {
        throw new AppError('FINGERPRINT_UNAVAILABLE', 409, undefined, { reason: host.reason });
      }
      set.fingerprint = patch.fingerprint;
    }
    if (patch.rotationInterval !== undefined) {
      if (port.is_shared) throw new AppError('SHARED_ROTATION_FIXED');
      set.rotation_interval = patch.rotationInterval;
    }
    if (Object.keys(set).length) {
      await this.repository.settingsTransaction(async (tx) => {
        if (whitelist) await assertNoWhitelistOverlap(this.repository, tx, portId, port.modem_id, whitelist);
        await this.repository.updateSettings(tx, userId, portId, set);
        if (patch.rotationInterval !== undefined && patch.rotationInterval !== port.rotation_interval) {
          await reschedulePortRotation(this.jobs, this.rotations, tx, portId);
        }
      });
    }
    const [updated] = await this.repository.list(userId, lng, { ids: [portId] });
    if (!updated) throw notFound();
    return updated;
  }

  /** A new rotation link; the old token stops working at once. A shared port has none that works (it is refused). */
  async newRotationLink(userId: string, portId: string): Promise<string> {
    const port = await this.repository.ownPortModem(userId, portId);
    if (!port) throw notFound();
    if (port.is_shared) throw await sharedRotationRefusal(this.rotations, port.modem_id);
    const nonce = newRotationNonce();
    if (!(await this.repository.setRotationNonce(userId, portId, nonce, rotationTokenHash(this.secret, portId, nonce)))) throw notFound();
    return `${this.publicUrl}/api/v1/rotate/${rotationToken(this.secret, portId, nonce)}`;
  }
}
