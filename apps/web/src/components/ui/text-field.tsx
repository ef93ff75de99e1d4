import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type TextareaHTMLAttributes } from 'react';

interface FieldTexts {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
}
export interface TextFieldProps extends FieldTexts, Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {}
export interface TextAreaFieldProps extends FieldTexts, Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  /** Reaches the textarea (e.g. to focus it). A prop of its own: React 18 keeps `ref` from function components. */
  textareaRef?: Ref<HTMLTextAreaElement> | undefined;
}

/** The .field around a control: its label, then the hint and the error tied to it with aria-describedby. */
function Field({ label, error, hint, control }: FieldTexts & { control: (id: string, aria: { 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode }) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {control(id, { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint ? <p id={`${id}-hint`} className="field__hint">{hint}</p> : null}
      {error ? <p id={`${id}-error`} className="field__error" role="alert">{error}</p> : null}
    </div>
  );
}

/** A labelled input in the global .field style. */
export function TextField({ label, error, hint, ...input }: TextFieldProps) {
  return <Field label={label} error={error} hint={hint} control={(id, aria) => <input id={id} {...aria} {...input} />} />;
}

/** A labelled multi-line input in the same style. */
export function TextAreaField({ label, error, hint, textareaRef, ...textarea }: TextAreaFieldProps) {
  return <Field label={label} error={error} hint={hint} control={(id, aria) => <textarea id={id} ref={textareaRef} {...aria} {...textarea} />} />;
}
