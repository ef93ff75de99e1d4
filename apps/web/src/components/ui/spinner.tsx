/** The small loading spinner. `label` is announced to screen readers. */
export function Spinner({ label, size = 18 }: { label?: string; size?: number }) {
  return (
    <span className="spinner" role="status" aria-live="polite" style={{ width: size, height: size }}>
      <span className="visually-hidden">{label ?? 'Loading'}</span>
    </span>
  );
}
