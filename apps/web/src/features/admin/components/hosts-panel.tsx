import type { InventoryHost, NewHostModem, ReportedHostModem } from '@cellport/shared/schemas/admin/host-inventory';
import { HOST_PROTOCOL } from '@cellport/shared/schemas/host-protocol';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { dateTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { useHostsLive } from '../api/inventory';
import { linkStateKey, linkTone } from '../lib/gateway-link';
import { agoText, durationText, secondsSince } from '../lib/host-times';
import { deviceText, rotationText, signalText } from '../lib/modem-report';
import { AdoptModemDialog } from './adopt-modem-dialog';
import { HostDialog } from './host-dialog';
import { HostKeyFlow } from './host-key-dialog';
import { QueryView } from './query-view';
import { StatusBadge } from './status-badge';

/** A clock for "12 seconds ago" that ticks every second while the page is open. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * Proxy hosts with their agents: last contact, online (a heartbeat within 60 s), agent version, uptime and the modems
 * as the agent last reported them (model, operator, signal, rotation time and success rate), and the modems the agent
 * reports that the inventory does not know yet ("new on host X"), each of which an operator adds from here; add or
 * edit a host, and issue its agent's key. Refetched every heartbeat interval.
 */
export function HostsPanel() {
  const { t } = useT('admin');
  const hosts = useHostsLive();
  const [editing, setEditing] = useState<InventoryHost | null | 'new'>(null);
  const [keyFor, setKeyFor] = useState<InventoryHost | null>(null);
  const [adopting, setAdopting] = useState<{ host: InventoryHost; modem: NewHostModem } | null>(null);
  const browserNow = useNow();
  return (
    <>
      <div className="admin-toolbar admin-toolbar--end">
        <p className="admin-muted admin-toolbar__note">{t('hosts.intro', { seconds: HOST_PROTOCOL.offlineAfterSeconds })}</p>
        <Button onClick={() => setEditing('new')}>{t('inventory.addHost')}</Button>
      </div>
      <QueryView query={hosts}>
        {(data) => data.items.length === 0 ? <p className="admin-state">{t('inventory.noHosts')}</p> : (
          <div className="admin-hosts">
            {data.items.map((h) => (
              <HostCard
                key={h.id}
                host={h}
                since={(iso) => secondsSince(iso, data.now, hosts.dataUpdatedAt, browserNow)}
                onEdit={() => setEditing(h)}
                onIssueKey={() => setKeyFor(h)}
                onAdopt={(modem) => setAdopting({ host: h, modem })}
              />
            ))}
          </div>
        )}
      </QueryView>
      {editing !== null ? <HostDialog key={editing === 'new' ? 'new' : editing.id} host={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      <HostKeyFlow host={keyFor} onClose={() => setKeyFor(null)} />
      <AdoptModemDialog hostId={adopting?.host.id ?? ''} hostName={adopting?.host.name ?? ''} modem={adopting?.modem ?? null} onClose={() => setAdopting(null)} />
    </>
  );
}

function HostCard({ host: h, since, onEdit, onIssueKey, onAdopt }: {
  host: InventoryHost; since: (iso: string) => number; onEdit: () => void; onIssueKey: () => void; onAdopt: (modem: NewHostModem) => void;
}) {
  const { t, language } = useT('admin');
  const headingId = `host-${h.id}`;
  return (
    <section className="card admin-section admin-host" aria-labelledby={headingId}>
      <div className="admin-host__head">
        <h2 id={headingId}>{h.name} <span className="admin-muted mono">{h.address}</span></h2>
        {h.online ? <StatusBadge tone="ok">{t('modemStatus.online')}</StatusBadge> : <StatusBadge tone="bad">{t('modemStatus.offline')}</StatusBadge>}
        <div className="admin-actions admin-host__actions">
          <Button size="sm" variant="secondary" onClick={onEdit} aria-label={t('inventory.editHostNamed', { name: h.name })}>{t('actions.edit')}</Button>
          <Button size="sm" variant="secondary" onClick={onIssueKey} aria-label={t('hosts.issueKeyNamed', { name: h.name })}>{t('hosts.issueKey')}</Button>
        </div>
      </div>
      <dl className="admin-dl admin-host__facts">
        <dt>{t('hosts.lastContact')}</dt>
        <dd>{h.lastSeenAt
          ? <time dateTime={h.lastSeenAt} title={dateTime(h.lastSeenAt, language)}>{agoText(since(h.lastSeenAt), language)}</time>
          : t('hosts.never')}</dd>
        <dt>{t('hosts.agentVersion')}</dt><dd>{h.agentVersion ?? '—'}</dd>
        <dt>{t('hosts.uptime')}</dt>
        <dd>{h.online && h.agentStartedAt ? durationText(since(h.agentStartedAt), language) : '—'}</dd>
        <dt>{t('hosts.key')}</dt><dd>{h.hasKey ? t('hosts.keyIssued') : t('hosts.keyNone')}</dd>
        <dt>{t('gateways.reachedThrough')}</dt>
        <dd>{h.gateway ? t('gateways.gatewayOf', { name: h.gateway.name, host: h.gateway.publicHost }) : t('gateways.direct')}</dd>
        {h.gateway ? <><dt>{t('gateways.link')}</dt><dd><GatewayLink host={h} /></dd></> : null}
        <dt>{t('hosts.presets')}</dt>
        <dd data-testid="host-fingerprint">{h.fingerprintUnavailable
          ? <><StatusBadge tone="warn">{t('hosts.presetsUnavailable')}</StatusBadge><div className="admin-problem">{h.fingerprintUnavailable}</div></>
          : <StatusBadge tone="ok">{t('hosts.presetsAvailable')}</StatusBadge>}</dd>
      </dl>
      {!h.lastSeenAt ? <p className="admin-muted">{h.hasKey ? t('hosts.waitingForAgent') : t('hosts.needKey')}</p> : null}
      {h.newModems.length > 0 ? <NewModems host={h} onAdopt={onAdopt} /> : null}
      <HostModems host={h} />
    </section>
  );
}

/** A pinned host's link as its agent last reported it: the state, since when, and the problem as the agent wrote it. */
function GatewayLink({ host: h }: { host: InventoryHost }) {
  const { t, language } = useT('admin');
  const link = h.gatewayLink;
  if (!link) return <span className="admin-muted">{t('gateways.noLinkReport')}</span>;
  return (
    <>
      <StatusBadge tone={linkTone(link, h.online)}>{t(linkStateKey(link))}</StatusBadge>{' '}
      <time className="admin-muted" dateTime={link.changedAt}>{t('gateways.linkSince', { time: dateTime(link.changedAt, language) })}</time>
      {link.problem ? <div className="admin-problem">{link.problem}</div> : null}
    </>
  );
}

/** Modems the host's agent reports that the inventory does not have: what the device says, and "Add to inventory". */
function NewModems({ host, onAdopt }: { host: InventoryHost; onAdopt: (modem: NewHostModem) => void }) {
  const { t, language } = useT('admin');
  const headingId = `host-${host.id}-new`;
  return (
    <div className="admin-host__new">
      <h3 id={headingId}>{t('hosts.newOn', { name: host.name })}</h3>
      <p className="admin-muted">{t('hosts.newIntro', { name: host.name })}</p>
      <div className="admin-table-wrap" tabIndex={0} role="region" aria-labelledby={headingId}>
        <table className="admin-table">
          <caption className="visually-hidden">{t('hosts.newOn', { name: host.name })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('fields.imei')}</th><th scope="col">{t('hosts.model')}</th><th scope="col">{t('hosts.operator')}</th>
              <th scope="col">{t('hosts.signal')}</th><th scope="col">{t('hosts.network')}</th><th scope="col">{t('fields.ip')}</th>
              <th scope="col"><span className="visually-hidden">{t('fields.actions')}</span></th>
            </tr>
          </thead>
          <tbody>
            {host.newModems.map((m) => (
              <tr key={m.imei}>
                <td className="mono">{m.imei}{m.name ? <span className="admin-muted"> ({m.name})</span> : null}</td>
                <td>{deviceText(m) ?? '—'}</td>
                <td>{m.operator ?? '—'}</td>
                <td>{signalText(m, t, language) ?? '—'}</td>
                <td>{m.networkType ?? '—'}</td>
                <td className="mono">{m.extIp ?? <span className="admin-muted">{t('hosts.notMeasured')}</span>}
                  {m.problem ? <div className="admin-problem">{m.problem}</div> : null}</td>
                <td>
                  <Button size="sm" onClick={() => onAdopt(m)} aria-label={t('hosts.addNamed', { imei: m.imei })}>{t('hosts.addToInventory')}</Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function HostModems({ host }: { host: InventoryHost }) {
  const { t } = useT('admin');
  return (
    <div className="admin-table-wrap" tabIndex={0} role="region" aria-label={t('hosts.modemsOf', { name: host.name })}>
      <table className="admin-table">
        <caption className="visually-hidden">{t('hosts.modemsOf', { name: host.name })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('fields.imei')}</th><th scope="col">{t('hosts.model')}</th><th scope="col">{t('hosts.operator')}</th>
            <th scope="col">{t('hosts.signal')}</th><th scope="col">{t('hosts.ports')}</th><th scope="col">{t('fields.ip')}</th>
            <th scope="col">{t('fields.status')}</th><th scope="col">{t('hosts.rotations')}</th>
            <th scope="col" className="num">{t('hosts.connections')}</th><th scope="col">{t('hosts.problem')}</th>
          </tr>
        </thead>
        <tbody>
          {host.modems.length === 0 ? <tr><td colSpan={10} className="admin-table__empty">{t('hosts.noModems')}</td></tr> : null}
          {host.modems.map((m) => <ModemRow key={m.id} modem={m} hostOnline={host.online} />)}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A modem's state as its agent reported it (degraded: its health checks found something off while it serves; the
 * reason is in the problem column, the badge's title says since when); while the host is offline nobody reports it,
 * and the row says so.
 */
function ModemRow({ modem: m, hostOnline }: { modem: ReportedHostModem; hostOnline: boolean }) {
  const { t, language } = useT('admin');
  const r = m.report;
  const problem = m.problem ?? (m.health !== 'online' ? m.healthReason : null) ?? r?.problem ?? null;
  const since = m.healthChangedAt ? t('hosts.healthSince', { time: dateTime(m.healthChangedAt, language) }) : undefined;
  return (
    <tr>
      <td className="mono">{m.imei}</td>
      <td>{r ? deviceText(r) ?? '—' : '—'}</td>
      <td>{r?.operator ? `${r.operator}${r.networkType ? ` · ${r.networkType}` : ''}` : '—'}</td>
      <td>{r ? signalText(r, t, language) ?? '—' : '—'}</td>
      <td className="mono">{t('hosts.portPair', { http: m.httpPort, socks: m.socksPort })}</td>
      <td className="mono">{m.extIp}</td>
      <td>{m.retired ? <StatusBadge tone="neutral">{t('modemStatus.retired')}</StatusBadge>
        : !hostOnline ? <StatusBadge tone="neutral">{t('hosts.noReport')}</StatusBadge>
        : <span title={since}>{!m.online ? <StatusBadge tone="bad">{t('modemStatus.offline')}</StatusBadge>
          : m.health === 'degraded' ? <StatusBadge tone="warn">{t('modemStatus.degraded')}</StatusBadge>
          : <StatusBadge tone="ok">{t('modemStatus.online')}</StatusBadge>}</span>}</td>
      <td>{r ? rotationText(r, t, language) ?? <span className="admin-muted">{t('hosts.noRotations')}</span> : '—'}</td>
      <td className="num">{m.connections}</td>
      <td className="admin-wrap">{problem ? <span className="admin-problem">{problem}</span> : <span className="admin-muted">—</span>}</td>
    </tr>
  );
}
