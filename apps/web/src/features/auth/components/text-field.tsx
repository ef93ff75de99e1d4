import { useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useFieldIds } from './field-ids';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  name: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  /** For passwords: a button that shows or hides the text. */
  reveal?: { show: string; hide: string };
}

/** A labelled input with its hint and its error linked by aria-describedby. */
export function TextField({ label, error, hint, reveal, type = 'text', className, ...input }: Props) {
  const { id, hintId, errorId, describedBy } = useFieldIds(Boolean(hint), Boolean(error));
  const [shown, setShown] = useState(false);
  return (
    <div className={`field auth-field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      <div className={reveal ? 'auth-field__control auth-field__control--reveal' : 'auth-field__control'}>
        <input
          id={id}
          type={reveal && shown ? 'text' : type}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...input}
        />
        {reveal && (
          <button type="button" className="auth-field__reveal" aria-pressed={shown} aria-controls={id} onClick={() => setShown((s) => !s)}>
            {shown ? reveal.hide : reveal.show}
          </button>
        )}
      </div>
      {hint && <p id={hintId} className="field__hint">{hint}</p>}
      {error && <p id={errorId} className="field__error">{error}</p>}
    </div>
  );
}
