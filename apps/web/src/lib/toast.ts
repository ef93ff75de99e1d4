import { COPIED_TOAST_MS, TOAST_MS_DASHBOARD, TOAST_MS_DEFAULT } from '@cellport/shared/constants';

// Spec §8: toasts sit at the bottom centre and close after 3 s inside the dashboard shell, 5 s elsewhere.
// The shell switches the default while mounted; callers never pass durations. The toast library loads on the
// first toast, so pages that never toast do not download it.
let duration = TOAST_MS_DEFAULT;
export const setDashboardToasts = (inside: boolean) => { duration = inside ? TOAST_MS_DASHBOARD : TOAST_MS_DEFAULT; };

type Kind = 'success' | 'error' | 'info';
const sonner = () => import('../components/ui/toaster').then((m) => m.mountToaster());

function show(kind: Kind, message: string, ms = duration) {
  void sonner().then((toast) => (kind === 'info' ? toast(message, { duration: ms }) : toast[kind](message, { duration: ms })));
}

export const toast = {
  success: (message: string) => show('success', message),
  error: (message: string) => show('error', message),
  info: (message: string) => show('info', message),
  /** 'Copied!' closes after 10 ms (spec §8). */
  copied: (message: string) => show('success', message, COPIED_TOAST_MS),
};
