import { createHash } from 'node:crypto';
import type { DesiredModem, DesiredState, PortAccessState } from '@cellport/shared/schemas/host-protocol';
import type { Database } from '../../db/database.js';

export interface HostDesired {
  state: DesiredState;
  /** The host's key hash now: a connection made with another key was revoked. */
  keyHash: string | null;
}

/** Why a port may carry traffic, in the contract's order of precedence. */
export function accessState(p: { is_active: boolean; suspended_at: Date | null; status: string; expires_at: Date }, now: number): PortAccessState {
  if (!p.is_active) return 'deactivated';
  if (p.suspended_at) return 'suspended';
  if (p.status === 'expired' || p.expires_at.getTime() <= now) return 'expired';
  return 'active';
}

/** A digest of everything the agent acts on (not generatedAt): equal content, equal version. */
export function stateVersion(content: Pick<DesiredState, 'hostId' | 'hostName' | 'modems' | 'gateway'>): string {
  return createHash('sha256').update(JSON.stringify([content.hostId, content.hostName, content.modems, content.gateway ?? null]))
    .digest('base64url').slice(0, 22);
}

/**
 * The desired state of each of these hosts, in two queries whatever their number: the non-retired modems and
 * their ports that are not released, whatever their state. A host that no longer exists is absent from the map.
 */
export async function loadDesiredStates(db: Database, hostIds: string[]): Promise<Map<string, HostDesired>> {
  const result = new Map<string, HostDesired>();
  if (hostIds.length === 0) return result;
  const hosts = await db.selectFrom('hosts as h').leftJoin('gateways as g', 'g.id', 'h.gateway_id')
    .select(['h.id', 'h.name', 'h.ingest_key_hash', 'g.id as gateway_id', 'g.link_url']).where('h.id', 'in', hostIds).execute();
  if (hosts.length === 0) return result;
  const rows = await db.selectFrom('modems as m')
    .leftJoin('ports as p', (j) => j.onRef('p.modem_id', '=', 'm.id').on('p.status', '<>', 'released'))
    .leftJoin('users as u', 'u.id', 'p.user_id')
    .select([
      'm.host_id', 'm.id as modem_id', 'm.imei', 'm.http_port', 'm.socks_port', 'm.ext_ip', 'm.driver', 'm.is_shared',
      'p.id as port_id', 'p.proxy_login', 'p.proxy_password', 'p.whitelist', 'p.status', 'p.expires_at', 'p.suspended_at',
      'u.is_active',
    ])
    .where('m.host_id', 'in', hosts.map((h) => h.id)).where('m.retired', '=', false)
    .orderBy('m.imei').orderBy('p.id').execute();

  const now = Date.now();
  const modems = new Map<string, DesiredModem[]>();
  const byId = new Map<string, DesiredModem>();
  for (const r of rows) {
    let modem = byId.get(r.modem_id);
    if (!modem) {
      modem = {
        id: r.modem_id, imei: r.imei, httpPort: r.http_port, socksPort: r.socks_port, extIp: r.ext_ip,
        driver: r.driver, isShared: r.is_shared, ports: [],
      };
      byId.set(r.modem_id, modem);
      const list = modems.get(r.host_id) ?? [];
      list.push(modem);
      modems.set(r.host_id, list);
    }
    if (r.port_id && r.proxy_login && r.proxy_password && r.status && r.expires_at) {
      modem.ports.push({
        id: r.port_id, login: r.proxy_login, password: r.proxy_password, whitelist: r.whitelist ?? [],
        state: accessState({ is_active: r.is_active ?? false, suspended_at: r.suspended_at, status: r.status, expires_at: r.expires_at }, now),
        expiresAt: r.expires_at.toISOString(),
      });
    }
  }
  const generatedAt = new Date(now).toISOString();
  for (const h of hosts) {
    const content = {
      hostId: h.id, hostName: h.name, modems: modems.get(h.id) ?? [],
      ...(h.gateway_id && h.link_url ? { gateway: { id: h.gateway_id, linkUrl: h.link_url } } : {}),
    };
    result.set(h.id, { state: { version: stateVersion(content), generatedAt, ...content }, keyHash: h.ingest_key_hash });
  }
  return result;
}
