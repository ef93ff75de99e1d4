/** The console's pages: relative path under /{lng}/admin and the admin:nav.* key of its title. */
export interface AdminNavItem { path: string; key: string }

export const ADMIN_NAV: readonly AdminNavItem[] = [
  { path: '/', key: 'overview' },
  { path: '/customers', key: 'customers' },
  { path: '/support', key: 'support' },
  { path: '/inventory', key: 'inventory' },
  { path: '/catalog', key: 'catalog' },
  { path: '/coupons', key: 'coupons' },
  { path: '/payments', key: 'payments' },
  { path: '/subscriptions', key: 'subscriptions' },
  { path: '/notifications', key: 'notifications' },
  { path: '/settings', key: 'settings' },
  { path: '/legal', key: 'legal' },
  { path: '/audit', key: 'audit' },
  { path: '/admins', key: 'admins' },
];

/** The nav item a console path belongs to ('/customers/123' → customers); unknown paths → null. */
export function adminNavFor(path: string): AdminNavItem | null {
  const first = `/${path.split('/')[1] ?? ''}`;
  return ADMIN_NAV.find((item) => item.path === first) ?? null;
}
