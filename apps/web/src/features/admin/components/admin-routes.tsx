import { Redirect, Route, Switch } from 'wouter';
import { AdminsPage } from '../pages/admins-page';
import { AuditPage } from '../pages/audit-page';
import { CannedRepliesPage } from '../pages/canned-replies-page';
import { CatalogPage } from '../pages/catalog-page';
import { CouponsPage } from '../pages/coupons-page';
import { CustomerDetailPage } from '../pages/customer-detail-page';
import { CustomersPage } from '../pages/customers-page';
import { InventoryPage } from '../pages/inventory-page';
import { LegalPage } from '../pages/legal-page';
import { NotificationsPage } from '../pages/notifications-page';
import { OverviewPage } from '../pages/overview-page';
import { PaymentDetailPage } from '../pages/payment-detail-page';
import { PaymentsPage } from '../pages/payments-page';
import { SubscriptionsPage } from '../pages/subscriptions-page';
import { SettingsPage } from '../pages/settings-page';
import { SupportInboxPage } from '../pages/support-inbox-page';
import { SupportTicketPage } from '../pages/support-ticket-page';

/** The console's pages, relative to /{lng}/admin. Unknown paths go to the overview. */
export function AdminRoutes() {
  return (
    <Switch>
      <Route path="/" component={OverviewPage} />
      <Route path="/customers" component={CustomersPage} />
      <Route path="/customers/:id">{(params) => <CustomerDetailPage key={params.id} id={params.id} />}</Route>
      <Route path="/inventory/:tab?">{(params) => <InventoryPage tab={params.tab} />}</Route>
      <Route path="/catalog" component={CatalogPage} />
      <Route path="/coupons" component={CouponsPage} />
      <Route path="/payments" component={PaymentsPage} />
      <Route path="/subscriptions" component={SubscriptionsPage} />
      <Route path="/payments/:id">{(params) => <PaymentDetailPage key={params.id} id={params.id} />}</Route>
      <Route path="/support" component={SupportInboxPage} />
      <Route path="/support/canned" component={CannedRepliesPage} />
      <Route path="/support/:id">{(params) => <SupportTicketPage key={params.id} id={params.id} />}</Route>
      <Route path="/notifications" component={NotificationsPage} />
      <Route path="/settings" component={SettingsPage} />
      <Route path="/legal" component={LegalPage} />
      <Route path="/audit" component={AuditPage} />
      <Route path="/admins" component={AdminsPage} />
      <Route><Redirect to="/" replace /></Route>
    </Switch>
  );
}
