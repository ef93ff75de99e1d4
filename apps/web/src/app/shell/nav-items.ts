import type { IconName } from '../../components/ui/icons';

/** A page of the shell: its relative path, the common:nav.* key of its title, and its icon. */
export interface NavItem { path: string; key: string; icon: IconName }

// Spec §2: sidebar Main section, then the Support section, then the payment pages linked from the sidebar's foot.
export const MAIN_NAV: NavItem[] = [
  { path: '/dashboard', key: 'dashboard', icon: 'dashboard' },
  { path: '/proxies', key: 'proxies', icon: 'proxies' },
  { path: '/add-proxy', key: 'addProxy', icon: 'addProxy' },
  { path: '/billing-renewals', key: 'billing', icon: 'billing' },
  { path: '/account', key: 'account', icon: 'account' },
  { path: '/traffic', key: 'traffic', icon: 'traffic' },
];
export const DOCUMENTATION_NAV: NavItem = { path: '/documentation', key: 'documentation', icon: 'documentation' };
/** The customer's support requests (issue 17), first in the Support section. */
export const SUPPORT_NAV: NavItem = { path: '/support', key: 'tickets', icon: 'inbox' };
export const PAYMENT_NAV: NavItem[] = [
  { path: '/pending-payments', key: 'pendingPayments', icon: 'pendingPayments' },
  { path: '/invoices', key: 'invoices', icon: 'invoices' },
  { path: '/purchases', key: 'purchases', icon: 'purchases' },
];

const ALL = [...MAIN_NAV, SUPPORT_NAV, DOCUMENTATION_NAV, ...PAYMENT_NAV];

/** The nav key of the page at a shell-relative path ('/' is the dashboard). */
export function navKeyFor(path: string): string {
  const first = `/${path.split('/')[1] ?? ''}`;
  if (first === '/') return 'dashboard';
  return ALL.find((item) => item.path === first)?.key ?? 'dashboard';
}
