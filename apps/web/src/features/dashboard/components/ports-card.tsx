import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { useT } from '../../../lib/i18n';
import { modemsQuery } from '../../../store/catalog-queries';

const SHOWN = 5;

/**
 * The first ports with their current IP and state, read from the cached modems list: a rotation anywhere (button, link,
 * schedule) arrives as a realtime 'modem' event and shows here without a reload.
 */
export function PortsCard() {
  const { t } = useT('dashboard');
  const query = useQuery(modemsQuery);
  const ports = (query.data ?? []).filter((m) => m.status === 'active');
  if (query.isPending || query.isError || ports.length === 0) return null;
  return (
    <article className="card" aria-labelledby="dash-ports-title">
      <h2 id="dash-ports-title" className="dash-card__title">{t('ports.title')}</h2>
      <ul className="dash-list" aria-live="polite">
        {ports.slice(0, SHOWN).map((port) => {
          const busy = port.applyStatus === 'rotating' || port.applyStatus === 'applying';
          return (
            <li key={port._id} className="dash-list__row" data-testid="dashboard-port">
              <span className="dash-list__main">{port.modem_name}</span>
              <span className="dash-list__side">
                <code className="dash-ip" data-testid="dashboard-port-ip">{port.ext_ip || '—'}</code>
                <span className={`dash-state dash-state--${busy ? 'busy' : port.applyStatus === 'failed' ? 'failed' : 'ok'}`}>
                  {t(`ports.state.${busy ? 'rotating' : port.applyStatus === 'failed' ? 'failed' : 'ready'}`)}
                </span>
              </span>
            </li>
          );
        })}
      </ul>
      <Link href="/proxies" className="dash-card__link">
        {ports.length > SHOWN ? t('ports.all', { count: ports.length }) : t('ports.manage')}
      </Link>
    </article>
  );
}
