import type { InputHTMLAttributes, ReactNode } from 'react';
import { useFieldIds } from './field-ids';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> {
  name: string;
  label: ReactNode;
  error?: string;
}

/** A checkbox whose whole label is clickable, with its error linked by aria-describedby. */
export function CheckboxField({ label, error, ...input }: Props) {
  const { id, errorId, describedBy } = useFieldIds(false, Boolean(error));
  return (
    <div className="auth-check">
      <input id={id} type="checkbox" aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
      <label htmlFor={id}>{label}</label>
      {error && <p id={errorId} className="field__error auth-check__error">{error}</p>}
    </div>
  );
}
