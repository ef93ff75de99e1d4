import { useId } from 'react';

/** Ids that tie a control to its hint and error text (aria-describedby), in that order. */
export function useFieldIds(hint: boolean, error: boolean) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint && hintId, error && errorId].filter(Boolean).join(' ') || undefined;
  return { id, hintId, errorId, describedBy };
}
