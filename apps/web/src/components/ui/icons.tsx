import type { ReactNode } from 'react';

// Stroke icons drawn on a 24px grid (in the style of Lucide, written out so no icon package is bundled).
function Icon({ children, size = 20 }: { children: ReactNode; size?: number }) {
  return (
    <svg viewBox="0 0 24 24" width={size} height={size} fill="none" stroke="currentColor" strokeWidth="1.8"
      strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      {children}
    </svg>
  );
}

export const icons = {
  dashboard: <Icon><rect x="3" y="3" width="7" height="9" rx="1.5" /><rect x="14" y="3" width="7" height="5" rx="1.5" /><rect x="14" y="12" width="7" height="9" rx="1.5" /><rect x="3" y="16" width="7" height="5" rx="1.5" /></Icon>,
  proxies: <Icon><rect x="6" y="2" width="12" height="20" rx="2.5" /><path d="M10 18h4" /><path d="M9.5 7.5a3.5 3.5 0 0 1 5 0M8 5a6 6 0 0 1 8 0" /></Icon>,
  addProxy: <Icon><circle cx="12" cy="12" r="9" /><path d="M12 8v8M8 12h8" /></Icon>,
  billing: <Icon><rect x="2.5" y="5" width="19" height="14" rx="2" /><path d="M2.5 10h19M6.5 15h4" /></Icon>,
  account: <Icon><circle cx="12" cy="8" r="4" /><path d="M4 21a8 8 0 0 1 16 0" /></Icon>,
  traffic: <Icon><path d="M3 3v18h18" /><path d="M7 15l4-4 3 3 5-6" /></Icon>,
  documentation: <Icon><path d="M4 4.5A2.5 2.5 0 0 1 6.5 2H20v17H6.5A2.5 2.5 0 0 0 4 21.5z" /><path d="M4 21.5V4.5M8 7h8M8 11h6" /></Icon>,
  pendingPayments: <Icon><circle cx="12" cy="12" r="9" /><path d="M12 7v5l3 2" /></Icon>,
  invoices: <Icon><path d="M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z" /><path d="M14 2v6h6M8 13h8M8 17h5" /></Icon>,
  purchases: <Icon><path d="M6 2L3 6v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V6l-3-4z" /><path d="M3 6h18M16 10a4 4 0 0 1-8 0" /></Icon>,
  bell: <Icon><path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" /><path d="M13.7 21a2 2 0 0 1-3.4 0" /></Icon>,
  menu: <Icon size={22}><path d="M4 6h16M4 12h16M4 18h16" /></Icon>,
  close: <Icon size={22}><path d="M6 6l12 12M18 6L6 18" /></Icon>,
  signOut: <Icon size={18}><path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9" /></Icon>,
  external: <Icon size={14}><path d="M15 3h6v6M10 14L21 3M18 13v6a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V8a2 2 0 0 1 2-2h6" /></Icon>,
  wallet: <Icon size={18}><path d="M20 7V5a2 2 0 0 0-2-2H5a2 2 0 0 0 0 4h15v13H5a2 2 0 0 1-2-2V5" /><circle cx="16" cy="13.5" r="1.2" /></Icon>,
  plus: <Icon size={18}><path d="M12 5v14M5 12h14" /></Icon>,
  chevronDown: <Icon size={16}><path d="M6 9l6 6 6-6" /></Icon>,
  globe: <Icon size={18}><circle cx="12" cy="12" r="9" /><path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18" /></Icon>,
  renew: <Icon><path d="M21 12a9 9 0 1 1-3-6.7L21 8" /><path d="M21 3v5h-5" /></Icon>,
  shield: <Icon><path d="M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z" /></Icon>,
  inbox: <Icon><path d="M22 12h-6l-2 3h-4l-2-3H2" /><path d="M5.5 5.1L2 12v6a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-6l-3.5-6.9A2 2 0 0 0 16.8 4H7.2a2 2 0 0 0-1.7 1.1z" /></Icon>,
};
export type IconName = keyof typeof icons;
