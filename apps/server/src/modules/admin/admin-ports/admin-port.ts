import type { AdminPort } from '@cellport/shared/schemas/admin/customers';
import type { Database, Tx } from '../../../db/database.js';

/** The columns of a port as the console shows it (with its modem's IMEI and IP). */
export function selectAdminPorts(q: Database | Tx) {
  return q.selectFrom('ports as p').innerJoin('modems as m', 'm.id', 'p.modem_id')
    .select(['p.id', 'p.user_id', 'p.name', 'p.status', 'p.modem_id', 'm.imei', 'm.ext_ip', 'p.tariff_id', 'p.is_shared', 'p.proxy_login',
      'p.expires_at', 'p.auto_renew', 'p.created_at', 'p.suspended_at']);
}

export interface AdminPortRow {
  id: string; name: string; status: AdminPort['status']; modem_id: string; imei: string; ext_ip: string; tariff_id: string;
  is_shared: boolean; proxy_login: string; expires_at: Date; auto_renew: boolean; created_at: Date; suspended_at: Date | null;
}

export const toAdminPort = (p: AdminPortRow): AdminPort => ({
  id: p.id, name: p.name, status: p.status, modemId: p.modem_id, imei: p.imei, extIp: p.ext_ip, tariffId: p.tariff_id,
  isShared: p.is_shared, proxyLogin: p.proxy_login, expiresAt: p.expires_at.toISOString(), autoRenew: p.auto_renew,
  createdAt: p.created_at.toISOString(), suspendedAt: p.suspended_at ? p.suspended_at.toISOString() : null,
});

/** A customer's ports as the console's customer page lists them: the newest 100 (accounts takes it by injection). */
export async function adminPortsOfCustomer(db: Database, userId: string): Promise<AdminPort[]> {
  const rows = await selectAdminPorts(db).where('p.user_id', '=', userId).orderBy('p.created_at', 'desc').limit(100).execute();
  return rows.map(toAdminPort);
}
