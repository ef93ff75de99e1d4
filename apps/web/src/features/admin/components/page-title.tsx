import type { ReactNode } from 'react';

/** The heading of a console page, with optional actions on the right (they wrap under it on phones). */
export function PageTitle({ title, description, actions }: { title: ReactNode; description?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="admin-page-title">
      <div>
        <h1>{title}</h1>
        {description ? <p className="admin-muted">{description}</p> : null}
      </div>
      {actions ? <div className="admin-page-title__actions">{actions}</div> : null}
    </div>
  );
}
