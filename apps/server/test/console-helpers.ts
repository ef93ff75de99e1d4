import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { TestApp } from './helpers.js';

export interface Signed { id: string; cookie: string; email: string }

/** A signed-in account straight in the database: an admin, or a customer with role 'customer'. */
export async function signedIn(t: TestApp, role: 'admin' | 'customer' = 'admin', over: { email?: string; name?: string } = {}): Promise<Signed> {
  const id = randomUUID();
  const email = over.email ?? `${role}-${id.slice(0, 8)}@test.local`;
  await t.ctx.db.insertInto('users').values({
    id, email, name: over.name ?? `Test ${role}`, password_hash: 'x', is_verified: true, role,
  }).execute();
  const token = await t.ctx.sessions.create(id, { ip: '127.0.0.1', headers: {} } as FastifyRequest);
  return { id, email, cookie: `cp_session=${token}` };
}

/** An inject() call as a browser on our own origin sends it. */
export function call(t: TestApp, cookie: string | null, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: method as 'GET', url,
    headers: { origin: t.config.publicUrl, ...(cookie ? { cookie } : {}), ...headers },
    ...(body === undefined ? {} : typeof body === 'string' ? { payload: body } : { payload: body as object }),
  });
}

/** The audit entries of one action, oldest first. */
export async function auditOf(t: TestApp, action: string) {
  return t.ctx.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();
}
