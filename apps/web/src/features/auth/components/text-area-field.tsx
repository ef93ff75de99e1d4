import type { ReactNode, TextareaHTMLAttributes } from 'react';
import { useFieldIds } from './field-ids';

interface Props extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  name: string;
  label: string;
  error?: string;
  hint?: ReactNode;
}

/** A labelled multi-line field with its hint and error linked by aria-describedby. */
export function TextAreaField({ label, error, hint, ...textarea }: Props) {
  const { id, hintId, errorId, describedBy } = useFieldIds(Boolean(hint), Boolean(error));
  return (
    <div className="field auth-field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} rows={3} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...textarea} />
      {hint && <p id={hintId} className="field__hint">{hint}</p>}
      {error && <p id={errorId} className="field__error">{error}</p>}
    </div>
  );
}
