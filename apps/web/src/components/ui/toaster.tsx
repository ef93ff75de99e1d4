import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { toast, Toaster } from 'sonner';

let mounted = false;

/** Mounts the toast region once, on the first toast (see lib/toast.ts). */
export function mountToaster(): typeof toast {
  if (!mounted) {
    mounted = true;
    const host = document.createElement('div');
    document.body.appendChild(host);
    createRoot(host).render(createElement(Toaster, { position: 'bottom-center', richColors: true }));
  }
  return toast;
}
