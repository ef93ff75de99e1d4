import { useId } from 'react';

export interface SelectOption { value: string; label: string }

/** A labelled <select> in the global .field style; `placeholder` adds an empty first choice. */
export function SelectField({ label, value, options, onChange, placeholder, error, className }: {
  label: string; value: string; options: SelectOption[]; onChange: (value: string) => void; placeholder?: string; error?: string | undefined; className?: string;
}) {
  const id = useId();
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
      </select>
      {error ? <p id={`${id}-error`} className="field__error" role="alert">{error}</p> : null}
    </div>
  );
}
