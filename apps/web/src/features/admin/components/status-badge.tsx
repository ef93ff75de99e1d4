/** A small coloured label; the colour repeats what the text says, never replaces it. */
export function StatusBadge({ tone, children }: { tone: 'ok' | 'warn' | 'bad' | 'neutral'; children: React.ReactNode }) {
  return <span className={`admin-badge admin-badge--${tone}`}>{children}</span>;
}
