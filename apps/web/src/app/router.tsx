import { Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { browserLanguage } from '../lib/browser-language';
import { LoadingOverlay } from '../components/ui/loading-overlay';
import { lazyPage } from '../lib/lazy-page';
import { LanguageRoot } from './language-root';
import { RouteErrorBoundary } from './router-fallback';

// Every page is lazy: the sign-in page downloads only what it needs (bench/BENCHMARKS.md, sign-in bundle).
const SignUp = lazyPage(() => import('../features/auth/pages/sign-up-page'));
const SignIn = lazyPage(() => import('../features/auth/pages/sign-in-page'));
const ConfirmEmail = lazyPage(() => import('../features/auth/pages/confirm-email-page'));
const EmailVerified = lazyPage(() => import('../features/auth/pages/email-verified-page'));
const ResetRequest = lazyPage(() => import('../features/auth/pages/reset-password-request-page'));
const ResetPassword = lazyPage(() => import('../features/auth/pages/reset-password-page'));
const Legal = lazyPage(() => import('../features/auth/pages/legal-page'));
const Shell = lazyPage(() => import('./shell/authenticated-shell'));
const Mailbox = lazyPage(() => import('../features/dev/mailbox-page'));
const ThankYou = lazyPage(() => import('../features/payments/thank-you-page'));
const Admin = lazyPage(() => import('../features/admin/admin-app'));

const toDashboard = <Redirect to="~/en/dashboard" replace />;

/** '/admin' (and '/admin/...') is the console in the browser's language: the address the README gives operators. */
function ConsoleRedirect({ rest }: { rest: string }) {
  return <Redirect to={`~/${browserLanguage()}/admin${rest ? `/${rest}` : ''}${location.search}`} replace />;
}

/**
 * A page's address without a language ('/sign-up', '/reset-password/…') opens that page in the browser's language,
 * and '/' the dashboard (issue 27, item 12); any other unknown path still goes to /en/dashboard (spec §2).
 */
function BrowserLanguageRedirect({ to }: { to?: string }) {
  return <Redirect to={`~/${browserLanguage()}${to ?? location.pathname}${location.search}`} replace />;
}
const PAGES_WITHOUT_LANGUAGE = ['/sign-up', '/sign-in', '/reset-password/*?', '/confirm-email/*?', '/email-verified/*?', '/terms', '/refund-policy'];

/** Public pages; every other path under /{lng} belongs to the authenticated shell. */
function LanguageRoutes() {
  return (
    <Switch>
      <Route path="/sign-up" component={SignUp} />
      <Route path="/sign-in" component={SignIn} />
      <Route path="/confirm-email/:email" component={ConfirmEmail} />
      <Route path="/email-verified/:email" component={EmailVerified} />
      <Route path="/reset-password" component={ResetRequest} />
      <Route path="/reset-password/:token" component={ResetPassword} />
      <Route path="/terms" component={Legal} />
      <Route path="/refund-policy" component={Legal} />
      <Route path="/admin" nest component={Admin} />
      <Route component={Shell} />
    </Switch>
  );
}

export function AppRoutes() {
  return (
    <RouteErrorBoundary>
      <Suspense fallback={<LoadingOverlay />}>
        <Switch>
          <Route path="/dev/mailbox" component={Mailbox} />
          <Route path="/thank-you-for-order" component={ThankYou} />
          <Route path="/admin/*?">{(params) => <ConsoleRedirect rest={params['*'] ?? ''} />}</Route>
          <Route path="/"><BrowserLanguageRedirect to="/dashboard" /></Route>
          {PAGES_WITHOUT_LANGUAGE.map((path) => <Route key={path} path={path}><BrowserLanguageRedirect /></Route>)}
          <Route path="/:lng" nest>
            {(params) => <LanguageRoot lng={params.lng}><LanguageRoutes /></LanguageRoot>}
          </Route>
          <Route>{toDashboard}</Route>
        </Switch>
      </Suspense>
    </RouteErrorBoundary>
  );
}
