import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { toast, Toaster } from 'sonner';
import { setToastHost } from './toast-layer';

let mounted = false;

/** Mounts the toast region once, on the first toast (see lib/toast.ts). */
export function mountToaster(): typeof toast {
  if (!mounted) {
    mounted = true;
    const host = document.createElement('div');
    host.className = 'toast-host';
    document.body.appendChild(host);
    // Plain toasts (dark text on white) rather than richColors: sonner's green success toast is 4.25:1, below AA.
    createRoot(host).render(createElement(Toaster, { position: 'bottom-center', closeButton: false }));
    setToastHost(host);
  }
  return toast;
}
