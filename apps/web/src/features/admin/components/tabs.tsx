import { useId, useRef, type ReactNode } from 'react';

export interface Tab { key: string; label: string }

/**
 * WAI-ARIA tabs: one tab stop, arrow keys (and Home/End) move between tabs and select them, the panel is labelled
 * by its tab. The selected key lives in the caller (so it can sit in the URL).
 */
export function Tabs({ label, tabs, selected, onSelect, children }: {
  label: string; tabs: Tab[]; selected: string; onSelect: (key: string) => void; children: ReactNode;
}) {
  const base = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: React.KeyboardEvent) => {
    const index = tabs.findIndex((tab) => tab.key === selected);
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const tab = tabs[(next + tabs.length) % tabs.length]!;
    onSelect(tab.key);
    listRef.current?.querySelector<HTMLElement>(`[data-key="${tab.key}"]`)?.focus();
  };
  return (
    <>
      <div ref={listRef} role="tablist" aria-label={label} className="admin-tabs" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab.key}
            type="button"
            role="tab"
            id={`${base}-tab-${tab.key}`}
            data-key={tab.key}
            aria-selected={tab.key === selected}
            aria-controls={`${base}-panel`}
            tabIndex={tab.key === selected ? 0 : -1}
            className="admin-tabs__tab"
            onClick={() => onSelect(tab.key)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${selected}`} className="admin-tabs__panel">
        {children}
      </div>
    </>
  );
}
