import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Spinner } from './spinner';
import './ui.css';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost' | 'link';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: Variant;
  size?: 'sm' | 'md';
  /** Shows a spinner, disables the button and sets aria-busy while an action runs. */
  busy?: boolean;
  icon?: ReactNode;
}

const variantClass: Record<Variant, string> = {
  primary: 'btn', secondary: 'btn btn--secondary', danger: 'btn btn--danger', ghost: 'btn btn--ghost', link: 'btn btn--link',
};

/** The app's button: the global .btn styles plus busy state. type defaults to "button" (no accidental submits). */
export function Button({ variant = 'primary', size = 'md', busy = false, icon, className, disabled, children, type = 'button', ...rest }: ButtonProps) {
  const classes = [variantClass[variant], size === 'sm' ? 'btn--sm' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <button type={type} className={classes} disabled={disabled || busy} aria-busy={busy || undefined} {...rest}>
      {busy ? <Spinner size={16} /> : icon}
      {children}
    </button>
  );
}
