import { describe, expect, it } from 'vitest';
import { navKeyFor } from './nav-items';
import { isShellPath } from './shell-routes';

describe('shell routes', () => {
  it('knows every authenticated route of spec §2 and nothing else', () => {
    for (const path of ['/', '/dashboard', '/proxies', '/add-proxy', '/billing-renewals', '/account', '/pending-payments',
      '/invoices', '/purchases', '/documentation', '/traffic', '/account/', '/support',
      '/support/5d6c0b8e-0000-4000-8000-000000000000']) expect(isShellPath(path)).toBe(true);
    for (const path of ['/nowhere', '/dashboard/x', '/sign-in', '/billing', '/support/a/b']) expect(isShellPath(path)).toBe(false);
  });

  it('titles each page by its navigation entry, the root as the dashboard', () => {
    expect(navKeyFor('/')).toBe('dashboard');
    expect(navKeyFor('/billing-renewals')).toBe('billing');
    expect(navKeyFor('/pending-payments')).toBe('pendingPayments');
    expect(navKeyFor('/account')).toBe('account');
    expect(navKeyFor('/support/5d6c0b8e-0000-4000-8000-000000000000')).toBe('tickets');
  });
});
