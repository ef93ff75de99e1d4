import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useLanguage } from '../../lib/language';
import { setDashboardToasts } from '../../lib/toast';
import { createAdminQueryClient, signInUrl } from './admin-query-client';
import { AdminGuard } from './components/admin-guard';
import './admin.css';

/**
 * The operator console under /{lng}/admin: its own lazy chunk, so customers never download it. TanStack Query lives
 * here too (the customer shell's client is not shared). Toasts close after 3 s, as in the dashboard.
 */
export default function AdminApp() {
  const language = useLanguage();
  const [client] = useState(() => createAdminQueryClient(() => location.assign(signInUrl(language))));
  useEffect(() => {
    setDashboardToasts(true);
    return () => setDashboardToasts(false);
  }, []);
  return (
    <QueryClientProvider client={client}>
      <AdminGuard />
    </QueryClientProvider>
  );
}
