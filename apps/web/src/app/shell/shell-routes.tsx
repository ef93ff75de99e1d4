import { Redirect, Route, Switch } from 'wouter';
import { lazyPage } from '../../lib/lazy-page';

const Dashboard = lazyPage(() => import('../../features/dashboard/dashboard-page'));
const Proxies = lazyPage(() => import('../../features/proxies/proxies-page'));
const AddProxy = lazyPage(() => import('../../features/add-proxy/add-proxy-page'));
const Billing = lazyPage(() => import('../../features/billing/billing-page'));
const Account = lazyPage(() => import('../../features/account/account-page'));
const PendingPayments = lazyPage(() => import('../../features/payments/pending-payments-page'));
const Invoices = lazyPage(() => import('../../features/payments/invoices-page'));
const Purchases = lazyPage(() => import('../../features/payments/purchases-page'));
const Documentation = lazyPage(() => import('../../features/documentation/documentation-page'));
const Traffic = lazyPage(() => import('../../features/traffic/traffic-page'));
const Support = lazyPage(() => import('../../features/support/pages/support-page'));
const SupportTicket = lazyPage(() => import('../../features/support/pages/ticket-page'));

const PATHS = new Set(['/', '/dashboard', '/proxies', '/add-proxy', '/billing-renewals', '/account', '/pending-payments',
  '/invoices', '/purchases', '/documentation', '/traffic', '/support']);
/** Whether a /{lng}-relative path is a page of the shell (anything else redirects to /en/dashboard). */
export const isShellPath = (path: string) => {
  const trimmed = path.replace(/\/+$/, '') || '/';
  return PATHS.has(trimmed) || /^\/support\/[\w-]+$/.test(trimmed);
};

/** Every authenticated route of spec §2, relative to /{lng}; any other path goes to /en/dashboard. */
export function ShellRoutes() {
  return (
    <Switch>
      <Route path="/" component={Dashboard} />
      <Route path="/dashboard" component={Dashboard} />
      <Route path="/proxies" component={Proxies} />
      <Route path="/add-proxy" component={AddProxy} />
      <Route path="/billing-renewals" component={Billing} />
      <Route path="/account" component={Account} />
      <Route path="/pending-payments" component={PendingPayments} />
      <Route path="/invoices" component={Invoices} />
      <Route path="/purchases" component={Purchases} />
      <Route path="/documentation" component={Documentation} />
      <Route path="/traffic" component={Traffic} />
      <Route path="/support" component={Support} />
      <Route path="/support/:id" component={SupportTicket} />
      <Route><Redirect to="~/en/dashboard" replace /></Route>
    </Switch>
  );
}
