import type { ReactNode } from 'react';
import './ui.css';

/** An honest empty state: what is missing, why, and what to do next. */
export function EmptyState({ icon, title, children, action }: { icon?: ReactNode; title: ReactNode; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty-state ui-empty">
      {icon ? <div className="ui-empty__icon" aria-hidden="true">{icon}</div> : null}
      <h2 className="ui-empty__title">{title}</h2>
      {children ? <div className="ui-empty__text">{children}</div> : null}
      {action ? <div className="ui-empty__action">{action}</div> : null}
    </div>
  );
}
