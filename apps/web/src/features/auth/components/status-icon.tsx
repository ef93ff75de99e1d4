/** The round illustration at the top of the message pages (confirm e-mail, verified). */
export function StatusIcon({ kind }: { kind: 'mail' | 'check' | 'key' }) {
  return (
    <div className={`auth-icon auth-icon--${kind}`} aria-hidden="true">
      <svg width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" focusable="false">
        {kind === 'mail' && <><rect x="3" y="5" width="18" height="14" rx="2" /><path d="m3 7 9 6 9-6" /></>}
        {kind === 'check' && <path d="m5 12.5 4.5 4.5L19 7.5" />}
        {kind === 'key' && <><circle cx="8" cy="15" r="4" /><path d="m10.8 12.2 8.2-8.2M16 7l3 3M14 9l2 2" /></>}
      </svg>
    </div>
  );
}
