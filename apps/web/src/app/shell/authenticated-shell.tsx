import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useLanguage } from '../../lib/language';
import { setDashboardToasts } from '../../lib/toast';
import { createShellQueryClient, signInUrl } from './query-client';
import { ShellFrame } from './shell-frame';

/**
 * The authenticated part of the app. TanStack Query lives here and not in main.tsx, so the public pages never
 * download it. While mounted, toasts close after 3 s (spec §8).
 */
export default function AuthenticatedShell() {
  const language = useLanguage();
  const [client] = useState(() => createShellQueryClient(() => location.assign(signInUrl(language))));
  useEffect(() => {
    setDashboardToasts(true);
    return () => setDashboardToasts(false);
  }, []);
  return (
    <QueryClientProvider client={client}>
      <ShellFrame />
    </QueryClientProvider>
  );
}
