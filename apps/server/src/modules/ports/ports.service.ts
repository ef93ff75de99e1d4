import type { Language } from '@cellport/shared';
import { CATALOG_MESSAGES, type Port, type PortPatchRequest } from '@cellport/shared/schemas/catalog';
import { whitelistRangeProblem } from '@cellport/shared/schemas/whitelist-ranges';
import type { Database } from '../../db/database.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { reschedulePortRotation } from './interval-rotation.js';
import { hostCapability } from '@cellport/shared/schemas/host-protocol';
import { newRotationNonce, rotationToken, rotationTokenHash } from './port-credentials.js';
import type { PortsRepository } from './ports.repository.js';
import { chosenProxyLogin } from './proxy-logins.js';
import { sharedRotationRefusal } from './rotation.service.js';
import { assertNoWhitelistOverlap } from './whitelist-conflicts.js';

/** Settings a customer changes on their own ports. */
export class PortsService {
  constructor(
    private readonly db: Database,
    private readonly repository: PortsRepository,
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
    const port = await this.db.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id').innerJoin('hosts as h', 'h.id', 'm.host_id')
      .select(['p.id', 'p.modem_id', 'p.is_shared', 'p.rotation_interval', 'p.proxy_login', 'p.proxy_password', 'h.fingerprint as host_fingerprint'])
      .where('p.id', '=', portId).where('p.user_id', '=', userId).where('p.status', '<>', 'released').executeTakeFirst();
    if (!port) throw notFound();
    const set: Record<string, unknown> = {};
    if (patch.modem_name !== undefined) set.name = patch.modem_name.trim();
    // The login as the list shows it, sent back unchanged, stays as it is (a login from before decision 035 too).
    if (patch.login !== undefined && patch.login !== port.proxy_login) set.proxy_login = await chosenProxyLogin(this.db, userId, patch.login);
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
      try {
        await this.db.transaction().execute(async (tx) => {
          if (whitelist) await assertNoWhitelistOverlap(tx, portId, port.modem_id, whitelist);
          await tx.updateTable('ports').set(set).where('id', '=', portId).where('user_id', '=', userId).execute();
          if (patch.rotationInterval !== undefined && patch.rotationInterval !== port.rotation_interval) await reschedulePortRotation(this.jobs, tx, portId);
        });
      } catch (err) {
        // Only ever the customer's own login: chosen logins carry their account's prefix.
        if (isUniqueViolation(err)) throw new AppError('PROXY_LOGIN_TAKEN');
        throw err;
      }
    }
    const [updated] = await this.repository.list(userId, lng, { ids: [portId] });
    if (!updated) throw notFound();
    return updated;
  }

  /** A new rotation link; the old token stops working at once. A shared port has none that works (it is refused). */
  async newRotationLink(userId: string, portId: string): Promise<string> {
    const port = await this.db.selectFrom('ports').select(['modem_id', 'is_shared'])
      .where('id', '=', portId).where('user_id', '=', userId).where('status', '<>', 'released').executeTakeFirst();
    if (!port) throw notFound();
    if (port.is_shared) throw await sharedRotationRefusal(this.db, port.modem_id);
    const nonce = newRotationNonce();
    const updated = await this.db.updateTable('ports')
      .set({ rotation_nonce: nonce, rotation_token_hash: rotationTokenHash(this.secret, portId, nonce) })
      .where('id', '=', portId).where('user_id', '=', userId).where('status', '<>', 'released')
      .returning('id').executeTakeFirst();
    if (!updated) throw notFound();
    return `${this.publicUrl}/api/v1/rotate/${rotationToken(this.secret, portId, nonce)}`;
  }
}
