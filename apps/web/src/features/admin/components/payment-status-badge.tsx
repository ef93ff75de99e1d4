import { useT } from '../../../lib/i18n';
import { StatusBadge } from './status-badge';

const TONES: Record<string, 'ok' | 'warn' | 'bad' | 'neutral'> = { completed: 'ok', pending: 'warn', failed: 'bad', refunded: 'neutral' };

export function PaymentStatusBadge({ status }: { status: string }) {
  const { t } = useT('admin');
  return <StatusBadge tone={TONES[status] ?? 'neutral'}>{t(`paymentStatus.${status}`, { defaultValue: status })}</StatusBadge>;
}
