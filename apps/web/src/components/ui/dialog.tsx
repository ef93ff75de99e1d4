import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { raiseToasts } from './toast-layer';
import { uiText } from './ui-text';
import './ui.css';

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons row at the bottom. */
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * A modal dialog on the native <dialog> element: showModal() makes the page behind it inert, Esc closes it (the
 * cancel event), Tab cycles inside it, and focus goes back to the element that opened it when it closes.
 */
export function Dialog({ open, onClose, title, description, children, footer, size = 'md' }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  // A layout effect: its cleanup runs while the <dialog> is still in the document, so a toast shown inside it
  // (toast-layer.ts) moves back to <body> before the dialog goes, without a frame with no toasts.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog || !open) return;
    const opener = document.activeElement as HTMLElement | null;
    if (!dialog.open) dialog.showModal();
    document.body.classList.add('has-modal');
    raiseToasts();
    return () => {
      if (dialog.open) dialog.close();
      // Another dialog may still be open beneath this one.
      if (!document.querySelector('dialog[open]')) document.body.classList.remove('has-modal');
      raiseToasts();
      opener?.focus?.();
    };
  }, [open]);

  function onKeyDown(event: React.KeyboardEvent<HTMLDialogElement>) {
    if (event.key !== 'Tab' || !ref.current) return;
    const items = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null);
    if (!items.length) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (event.shiftKey && document.activeElement === first) { event.preventDefault(); last.focus(); }
    else if (!event.shiftKey && document.activeElement === last) { event.preventDefault(); first.focus(); }
  }

  if (!open) return null;
  return (
    <dialog
      ref={ref}
      className={`dialog dialog--${size}`}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => { event.preventDefault(); onCloseRef.current(); }}
      onKeyDown={onKeyDown}
      // A click on the backdrop lands on the <dialog> itself: close, like Esc.
      onClick={(event) => { if (event.target === event.currentTarget) onCloseRef.current(); }}
    >
      <div className="dialog__panel">
        <div className="dialog__header">
          <h2 id={titleId} className="dialog__title">{title}</h2>
          <button type="button" className="dialog__close" onClick={() => onCloseRef.current()} aria-label={uiText('close', 'Close')}>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true"><path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" /></svg>
          </button>
        </div>
        {description ? <p id={descriptionId} className="dialog__description">{description}</p> : null}
        {children ? <div className="dialog__body">{children}</div> : null}
        {footer ? <div className="dialog__footer">{footer}</div> : null}
      </div>
    </dialog>
  );
}
