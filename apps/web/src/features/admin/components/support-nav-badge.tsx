import { useT } from '../../../lib/i18n';
import { SUPPORT_BADGE_POLL_MS, useSupportSummary } from '../api/support';
import { count } from '../lib/format';

/** Beside "Support" in the console's sidebar: how many tickets wait on an operator (polled; nothing when none). */
export function SupportNavBadge() {
  const { t, language } = useT('admin');
  const open = useSupportSummary(SUPPORT_BADGE_POLL_MS).data?.open ?? 0;
  if (!open) return null;
  return (
    <span className="admin-sidebar__badge" data-testid="support-nav-badge">
      <span aria-hidden="true">{open > 99 ? '99+' : count(open, language)}</span>
      <span className="visually-hidden">{t('support.openCount', { count: open })}</span>
    </span>
  );
}
