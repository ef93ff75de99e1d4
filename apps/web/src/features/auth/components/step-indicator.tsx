interface Props {
  steps: readonly string[];
  /** Zero-based index of the step on screen. */
  current: number;
  label: string;
  stepOf: (n: number) => string;
}

/** The three sign-up steps with their names; the current one is marked for screen readers too. */
export function StepIndicator({ steps, current, label, stepOf }: Props) {
  return (
    <ol className="auth-steps" aria-label={label}>
      {steps.map((name, index) => {
        const state = index < current ? 'done' : index === current ? 'current' : 'todo';
        return (
          <li key={name} className={`auth-steps__item auth-steps__item--${state}`} aria-current={state === 'current' ? 'step' : undefined}>
            <span className="auth-steps__number" aria-hidden="true">{state === 'done' ? '✓' : index + 1}</span>
            <span className="auth-steps__text">
              <span className="visually-hidden">{stepOf(index + 1)} </span>
              {name}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
