import { Route, Switch } from 'wouter';
import { lazyPage } from '../../lib/lazy-page';

// Placeholder: the shell (sidebar, header, bell) and the sign-in guard come with the shell work.
const Dashboard = lazyPage(() => import('../../features/dashboard/dashboard-page'));

export default function AuthenticatedShell() {
  return (
    <main>
      <Switch>
        <Route path="/" component={Dashboard} />
        <Route path="/dashboard" component={Dashboard} />
      </Switch>
    </main>
  );
}
