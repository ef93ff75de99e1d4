import { sql } from 'kysely';
import type { Host, HostPatchRequest, HostRequest } from '@cellport/shared/schemas/admin';
import type { Database } from '../../../db/database.js';
import { AppError } from '../../../lib/app-error.js';
import type { AuditActor, AuditLog } from '../audit/audit.service.js';
import { isUniqueViolation } from '../db-errors.js';

/** Proxy hosts: add, rename or re-address; delete only while no modem was ever on it. */
export class HostsService {
  constructor(private readonly db: Database, private readonly audit: AuditLog) {}

  async list(): Promise<Host[]> {
    const rows = await this.db.selectFrom('hosts as h')
      .select(['h.id', 'h.name', 'h.address'])
      .select((eb) => eb.selectFrom('modems').select(sql<string>`count(*)`.as('n')).whereRef('modems.host_id', '=', 'h.id').as('modems'))
      .orderBy('h.name').execute();
    return rows.map((r) => ({ id: r.id, name: r.name, address: r.address, modemCount: Number(r.modems ?? 0) }));
  }

  private async one(id: string): Promise<Host> {
    const host = (await this.list()).find((h) => h.id === id);
    if (!host) throw new AppError('NOT_FOUND', 404);
    return host;
  }

  async create(actor: AuditActor, req: HostRequest): Promise<Host> {
    const id = await this.db.transaction().execute(async (tx) => {
      const row = await tx.insertInto('hosts').values({ name: req.name, address: req.address }).returning(['id', 'name', 'address'])
        .executeTakeFirstOrThrow().catch(rethrowDuplicate);
      await this.audit.record(tx, actor, { action: 'host.create', targetType: 'host', targetId: row.id, before: null, after: row });
      return row.id;
    });
    return this.one(id);
  }

  async update(actor: AuditActor, id: string, patch: HostPatchRequest): Promise<Host> {
    await this.db.transaction().execute(async (tx) => {
      const before = await tx.selectFrom('hosts').select(['id', 'name', 'address']).where('id', '=', id).forUpdate().executeTakeFirst();
      if (!before) throw new AppError('NOT_FOUND', 404);
      const after = await tx.updateTable('hosts').set({ name: patch.name ?? before.name, address: patch.address ?? before.address })
        .where('id', '=', id).returning(['id', 'name', 'address']).executeTakeFirstOrThrow().catch(rethrowDuplicate);
      await this.audit.record(tx, actor, { action: 'host.update', targetType: 'host', targetId: id, before, after });
    });
    return this.one(id);
  }

  async remove(actor: AuditActor, id: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      const before = await tx.selectFrom('hosts').select(['id', 'name', 'address']).where('id', '=', id).forUpdate().executeTakeFirst();
      if (!before) throw new AppError('NOT_FOUND', 404);
      const used = await tx.selectFrom('modems').select('id').where('host_id', '=', id).limit(1).executeTakeFirst();
      if (used) throw new AppError('IN_USE', 409);
      await tx.deleteFrom('hosts').where('id', '=', id).execute();
      await this.audit.record(tx, actor, { action: 'host.delete', targetType: 'host', targetId: id, before, after: null });
    });
  }
}

function rethrowDuplicate(error: unknown): never {
  if (isUniqueViolation(error)) throw new AppError('ALREADY_EXISTS', 409);
  throw error;
}
