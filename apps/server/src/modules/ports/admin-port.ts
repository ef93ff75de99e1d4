import type { AdminPort } from '@cellport/shared/schemas/admin/customers';

/** A port as the console reads it (ports-admin.repository.ts `selectAdminPorts`: with its modem's IMEI and IP). */
export interface AdminPortRow {
  id: string; name: string; status: AdminPort['status']; modem_id: string; imei: string; ext_ip: string; tariff_id: string;
  is_shared: boolean; proxy_login: string; expires_at: Date; auto_renew: boolean; created_at: Date; suspended_at: Date | null;
}

export const toAdminPort = (p: AdminPortRow): AdminPort => ({
  id: p.id, name: p.name, status: p.status, modemId: p.modem_id, imei: p.imei, extIp: p.ext_ip, tariffId: p.tariff_id,
  isShared: p.is_shared, proxyLogin: p.proxy_login, expiresAt: p.expires_at.toISOString(), autoRenew: p.auto_renew,
  createdAt: p.created_at.toISOString(), suspendedAt: p.suspended_at ? p.suspended_at.toISOString() : null,
});

