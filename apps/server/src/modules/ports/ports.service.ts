import type { Language } from '@cellport/shared';
import { CATALOG_MESSAGES, whitelistEntrySchema, type Port, type PortPatchRequest } from '@cellport/shared/schemas/catalog';
import type { Database } from '../../db/database.js';
import { isUniqueViolation } from '../../db/pg-errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { reschedulePortRotation } from './interval-rotation.js';
import { newRotationNonce, rotationToken, rotationTokenHash } from './port-credentials.js';
import type { PortsRepository } from './ports.repository.js';

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
    const port = await this.db.selectFrom('ports').select(['id', 'is_shared', 'rotation_interval'])
      .where('id', '=', portId).where('user_id', '=', userId).where('status', '<>', 'released').executeTakeFirst();
    if (!port) throw notFound();
    const set: Record<string, unknown> = {};
    if (patch.modem_name !== undefined) set.name = patch.modem_name.trim();
    if (patch.login !== undefined) set.proxy_login = patch.login;
    if (patch.password !== undefined) set.proxy_password = patch.password;
    if (patch.autoRenew !== undefined) set.auto_renew = patch.autoRenew;
    if (patch.whitelist !== undefined) {
      const entries = [...new Set(patch.whitelist.map((e) => e.trim()).filter(Boolean))];
      if (!entries.every((entry) => whitelistEntrySchema.safeParse(entry).success)) throw new AppError('VALIDATION', 400, CATALOG_MESSAGES.whitelistEntry);
      set.whitelist = JSON.stringify(entries);
    }
    // Tags arrive trimmed and lower case (portTagSchema); kept once each and sorted, so lists and filters agree.
    if (patch.tags !== undefined) set.tags = [...new Set(patch.tags)].sort();
    if (patch.note !== undefined) set.note = patch.note;
    if (patch.rotationInterval !== undefined) {
      if (port.is_shared) throw new AppError('SHARED_ROTATION_FIXED', 409);
      set.rotation_interval = patch.rotationInterval;
    }
    if (Object.keys(set).length) {
      try {
        await this.db.transaction().execute(async (tx) => {
          await tx.updateTable('ports').set(set).where('id', '=', portId).where('user_id', '=', userId).execute();
          if (patch.rotationInterval !== undefined && patch.rotationInterval !== port.rotation_interval) await reschedulePortRotation(this.jobs, tx, portId);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('PROXY_LOGIN_TAKEN', 409);
        throw err;
      }
    }
    const [updated] = await this.repository.list(userId, lng, { ids: [portId] });
    if (!updated) throw notFound();
    return updated;
  }

  /** A new rotation link; the old token stops working at once. */
  async newRotationLink(userId: string, portId: string): Promise<string> {
    const nonce = newRotationNonce();
    const updated = await this.db.updateTable('ports')
      .set({ rotation_nonce: nonce, rotation_token_hash: rotationTokenHash(this.secret, portId, nonce) })
      .where('id', '=', portId).where('user_id', '=', userId).where('status', '<>', 'released')
      .returning('id').executeTakeFirst();
    if (!updated) throw notFound();
    return `${this.publicUrl}/api/v1/rotate/${rotationToken(this.secret, portId, nonce)}`;
  }
}
