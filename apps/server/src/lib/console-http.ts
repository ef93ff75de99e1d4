// The operator console's request conventions (decision 044: shared by every domain's console routes, owned by none):
// who acts, the per-operator rate limits and a list's paging. The lists' counting is in console-lists.repository.ts.
import type { FastifyRequest } from 'fastify';
import { ADMIN_LIMITS } from '@cellport/shared/schemas/admin/common';
import { currentUser } from '../plugins/session.js';

/** Who does an operator action, for the audit log (modules/audit records it). */
export interface AuditActor { adminId: string; ip: string }

/** The operator behind a console request. */
export function actorOf(request: FastifyRequest): AuditActor {
  return { adminId: currentUser(request).userId, ip: request.ip };
}

const perAdmin = (r: FastifyRequest) => r.user?.userId ?? r.ip;
/** Per-admin limits: generous for reads (the console polls lists), tighter for writes and money. */
export const adminRateLimits = {
  read: { rateLimit: { max: 600, timeWindow: '1 minute', keyGenerator: perAdmin } },
  write: { rateLimit: { max: 120, timeWindow: '1 minute', keyGenerator: perAdmin } },
  money: { rateLimit: { max: 30, timeWindow: '1 minute', keyGenerator: perAdmin } },
} as const;

export interface Paging { page: number; pageSize: number; offset: number }
export function paging(q: { page?: number | undefined; pageSize?: number | undefined }): Paging {
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? ADMIN_LIMITS.pageSizeDefault;
  return { page, pageSize, offset: (page - 1) * pageSize };
}

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
