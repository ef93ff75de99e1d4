import type { Port } from '@cellport/shared/schemas/catalog';
import { useT } from '../../../lib/i18n';

/** Active / expired / suspended, and whether the modem is online or busy changing its IP. */
export function StatusBadge({ port }: { port: Pick<Port, 'status' | 'online' | 'applyStatus' | 'suspended'> }) {
  const { t } = useT('proxies');
  const state = port.status === 'expired' ? 'expired'
    : port.suspended ? 'suspended'
    : port.applyStatus === 'rotating' || port.applyStatus === 'applying' ? 'rotating'
      : port.online ? 'online' : 'offline';
  return <span className={`px-badge px-badge--${state}`}>{t(`status.${state}`)}</span>;
}
