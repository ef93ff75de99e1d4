import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import './ui.css';

export interface PopoverProps {
  /** Content of the trigger button. */
  trigger: ReactNode;
  /** Accessible name of the trigger when its content is only an icon. */
  label?: string;
  triggerClassName?: string;
  panelClassName?: string;
  align?: 'start' | 'end';
  children: (close: () => void) => ReactNode;
}

/**
 * A disclosure: a button with aria-expanded that shows a panel below it. Esc and a click outside close it and
 * focus returns to the button. Used for the user menu and the notifications list (links, not an ARIA menu).
 */
export function Popover({ trigger, label, triggerClassName, panelClassName, align = 'end', children }: PopoverProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') { setOpen(false); buttonRef.current?.focus(); }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => { document.removeEventListener('pointerdown', onPointer); document.removeEventListener('keydown', onKey); };
  }, [open]);

  const close = () => setOpen(false);
  return (
    <div className="popover" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className={triggerClassName}
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={label}
        onClick={() => setOpen((v) => !v)}
      >
        {trigger}
      </button>
      <div id={panelId} className={`popover__panel popover__panel--${align} ${panelClassName ?? ''}`} hidden={!open}>
        {open ? children(close) : null}
      </div>
    </div>
  );
}
