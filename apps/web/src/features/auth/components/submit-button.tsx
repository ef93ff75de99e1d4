import type { ButtonHTMLAttributes } from 'react';

interface Props extends ButtonHTMLAttributes<HTMLButtonElement> {
  busy?: boolean;
  /** What the button says while busy, e.g. "Signing in…". */
  busyLabel?: string;
}

/** The full-width primary button of the public forms, with an inline spinner while its action runs. */
export function SubmitButton({ busy = false, busyLabel, children, disabled, className, ...button }: Props) {
  return (
    <button
      type="submit"
      className={`btn auth-submit${className ? ` ${className}` : ''}`}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...button}
    >
      {busy && <span className="spinner auth-submit__spinner" aria-hidden="true" />}
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}
