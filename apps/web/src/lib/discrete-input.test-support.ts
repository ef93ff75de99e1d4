// An operator's input as the browser delivers it, outside act(): React renders a click or key (a discrete event) in a
// microtask, while an update it schedules at default priority (one set by a passive effect, say) waits for a task. On
// a loaded machine the operator's next key can come between the two; these helpers reproduce that order exactly.

type ActGlobal = { IS_REACT_ACT_ENVIRONMENT?: boolean };

/** Runs `steps` with React scheduling as in a browser (no act() queue, no warnings for it), then restores the flag. */
export async function asInBrowser(steps: () => Promise<void>): Promise<void> {
  const global = globalThis as ActGlobal;
  const before = global.IS_REACT_ACT_ENVIRONMENT;
  global.IS_REACT_ACT_ENVIRONMENT = false;
  try { await steps(); } finally { global.IS_REACT_ACT_ENVIRONMENT = before; }
}

/**
 * Waits for `find` to return something while letting only microtasks run: React's render of a discrete event has
 * happened, a default-priority render scheduled since has not (it needs a task, which this never yields to).
 */
export async function beforeNextTask<T>(find: () => T | null | undefined): Promise<T> {
  for (let i = 0; i < 1000; i++) {
    const found = find();
    if (found) return found;
    await Promise.resolve();
  }
  throw new Error('not rendered within the microtasks after the event');
}

// Dispatched by hand: testing-library's fireEvent (either package's) goes through act(), which renders everything.
/** A click as the browser dispatches it. */
export const click = (element: Element) => element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
/** A form's submission (Enter in a field, or its submit button), as the browser dispatches it. */
export const submit = (form: Element) => form.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));

/**
 * The race the dialogs were fixed for: the operator opens a dialog with `opener` and submits its form at once, before
 * any default-priority render (an effect's) that the opening scheduled.
 */
export async function submitRightAfterOpening(opener: Element): Promise<void> {
  await asInBrowser(async () => {
    click(opener);
    submit(await beforeNextTask(() => document.querySelector('dialog form')));
  });
}
