import { createHash } from 'node:crypto';
import type { DesiredModem, DesiredState, PortAccess, PortAccessState, PortLimits } from '@cellport/shared/schemas/host-protocol';
import { activeFingerprint } from '@cellport/shared/schemas/fingerprint';
import { PORT_LIMITS, quotaMonth, quotaState } from '@cellport/shared/schemas/port-limits';
import type { TariffLimitColumns } from '../catalog/index.js';
import type { HostStateRepository } from './host-state.repository.js';

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

/**
 * A port's limits from its tariff and its bytes this month (decision 030). Past the quota, the state holds until the
 * next month starts, which the agent reads by its own clock; a throttled port goes at the lower of its cap and the
 * throttle rate (the agent takes the lower of the two).
 */
export function portLimits(t: TariffLimitColumns, monthBytes: bigint, now: number): PortLimits {
  const bps = (mbps: number | null) => (mbps === null ? null : mbps * PORT_LIMITS.bytesPerMbit);
  const state = quotaState({ monthlyQuotaGb: t.monthly_quota_gb, overQuota: t.over_quota }, monthBytes);
  const until = quotaMonth(new Date(now)).next.toISOString();
  return {
    bandwidthBytesPerSecond: bps(t.bandwidth_mbps),
    maxConnections: t.max_connections,
    quota: state === 'ok' ? { state }
      : state === 'throttled' ? { state, bytesPerSecond: bps(t.over_quota_mbps) ?? 1, until } : { state, until },
  };
}

/** A digest of everything the agent acts on (not generatedAt): equal content, equal version. */
export function stateVersion(content: Pick<DesiredState, 'hostId' | 'hostName' | 'modems' | 'gateway'>): string {
  return createHash('sha256').update(JSON.stringify([content.hostId, content.hostName, content.modems, content.gateway ?? null]))
    .digest('base64url').slice(0, 22);
}

/**
 * A digest of what one port serves: its entry and the modem it is on (its numbers serve a port without its own). The
 * agent reports it back per port (Heartbeat.ports): a fingerprint check waits for its own port's digest, so a
 * neighbour's change on the same host does not hold it (issue 30).
 */
export function portDigest(modem: Pick<DesiredModem, 'imei' | 'httpPort' | 'socksPort'>, port: Omit<PortAccess, 'digest'>): string {
  return createHash('sha256').update(JSON.stringify([modem.imei, modem.httpPort, modem.socksPort, port])).digest('base64url').slice(0, 16);
}

/**
 * The desired state of each of these hosts, in two queries whatever their number: the non-retired modems and
 * their ports that are not released, whatever their state. A host that no longer exists is absent from the map.
 */
export async function loadDesiredStates(repo: HostStateRepository, hostIds: string[]): Promise<Map<string, HostDesired>> {
  const result = new Map<string, HostDesired>();
  if (hostIds.length === 0) return result;
  const hosts = await repo.hosts(hostIds);
  if (hosts.length === 0) return result;
  const now = Date.now();
  const month = quotaMonth(new Date(now)).start.toISOString().slice(0, 10);
  const rows = await repo.modemsWithPorts(hosts.map((h) => h.id), month);

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
      // Issue 30: the port's preset, else its modem's default, else its tariff's; absent (native) says nothing.
      const fingerprint = activeFingerprint(r.fingerprint, r.modem_fingerprint, r.tariff_fingerprint ?? null).preset;
      const port: PortAccess = {
        id: r.port_id, login: r.proxy_login, password: r.proxy_password, whitelist: r.whitelist ?? [],
        state: accessState({ is_active: r.is_active ?? false, suspended_at: r.suspended_at, status: r.status, expires_at: r.expires_at }, now),
        expiresAt: r.expires_at.toISOString(),
        limits: portLimits({
          bandwidth_mbps: r.bandwidth_mbps ?? null, max_connections: r.max_connections ?? PORT_LIMITS.defaultMaxConnections,
          monthly_quota_gb: r.monthly_quota_gb ?? null, over_quota: r.over_quota ?? 'block', over_quota_mbps: r.over_quota_mbps ?? null,
        }, BigInt(r.month_bytes ?? 0), now),
        ...(fingerprint === 'native' ? {} : { fingerprint }),
        // Decision 045: the port's own numbers; none for a shared port sold before it (served on the modem's).
        ...(r.port_http !== null && r.port_socks !== null ? { listen: { httpPort: r.port_http, socksPort: r.port_socks } } : {}),
      };
      modem.ports.push({ ...port, digest: portDigest(modem, port) });
    }
  }
  const generatedAt = new Date(now).toISOString();
  for (const h of hosts) {
    const content = {
      hostId: h.id, hostName: h.name, modems: modems.get(h.id) ?? [],
      ...(h.gateway_id && h.link_url ? { gateway: { id: h.gateway_id, linkUrl: h.link_url } } : {}),
    };
    result.set(h.id, { state: { version: stateVersion(content), generatedAt, ...content, portListeners: true }, keyHash: h.ingest_key_hash });
  }
  return result;
}
