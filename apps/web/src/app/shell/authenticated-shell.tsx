import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useLanguage } from '../../lib/language';
import { setDashboardToasts } from '../../lib/toast';
import { createShellQueryClient, signInUrl } from './query-client';
import { ShellFrame } from './shell-frame';

/**
 * The sign-out button is a native form POST. Under the server's `Referrer-Policy: no-referrer` the browser sends
 * `Origin: null` with it and the CSRF check refuses it; a `same-origin` referrer policy for this document keeps the
 * real Origin on same-origin requests and still sends nothing to other sites.
 */
function keepOriginOnSameOriginPosts(): void {
  if (document.querySelector('meta[name="referrer"]')) return;
  const meta = document.createElement('meta');
  meta.name = 'referrer';
  meta.content = 'same-origin';
  document.head.appendChild(meta);
}

/**
 * The authenticated part of the app. TanStack Query lives here and not in main.tsx, so the public pages never
 * download it. While mounted, toasts close after 3 s (spec §8).
 */
export default function AuthenticatedShell() {
  const language = useLanguage();
  const [client] = useState(() => createShellQueryClient(() => location.assign(signInUrl(language))));
  useEffect(() => {
    setDashboardToasts(true);
    keepOriginOnSameOriginPosts();
    return () => setDashboardToasts(false);
  }, []);
  return (
    <QueryClientProvider client={client}>
      <ShellFrame />
    </QueryClientProvider>
  );
}
