import type { ReactNode } from 'react';

export interface Choice<T> {
  value: T;
  label: ReactNode;
  hint?: ReactNode;
  /** Shown as sold out (still choosable, so the buyer sees it; the order cannot be paid). */
  soldOut?: ReactNode;
}

/**
 * One step of the guided flow as a radio group: native radios (arrow keys move between them, the legend names the
 * group), styled as chips. Values are compared by String() so booleans and numbers work as well as ids.
 */
export function ChoiceGroup<T>({ legend, name, choices, value, onChange, disabled }: {
  legend: ReactNode;
  name: string;
  choices: readonly Choice<T>[];
  value: T | null;
  onChange: (value: T) => void;
  disabled?: boolean;
}) {
  return (
    <fieldset className="ap-choice" disabled={disabled}>
      <legend className="ap-choice__legend">{legend}</legend>
      <div className="ap-choice__options">
        {choices.map((choice) => {
          const checked = value !== null && String(value) === String(choice.value);
          return (
            <label key={String(choice.value)} className={`ap-chip${checked ? ' ap-chip--checked' : ''}${choice.soldOut ? ' ap-chip--sold-out' : ''}`}>
              <input type="radio" name={name} checked={checked} onChange={() => onChange(choice.value)} />
              <span className="ap-chip__label">{choice.label}</span>
              {choice.hint ? <span className="ap-chip__hint">{choice.hint}</span> : null}
              {choice.soldOut ? <span className="ap-chip__sold-out">{choice.soldOut}</span> : null}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
