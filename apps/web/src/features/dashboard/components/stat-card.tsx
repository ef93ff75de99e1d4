import type { ReactNode } from 'react';
import { Link } from 'wouter';

/** A number with its label and a link to the page behind it. */
export function StatCard({ id, title, value, detail, link }: {
  id: string; title: string; value: ReactNode; detail?: ReactNode; link: { href: string; text: string };
}) {
  return (
    <article className="card dash-stat" aria-labelledby={id}>
      <h2 id={id} className="dash-card__title">{title}</h2>
      <div className="dash-stat__value">{value}</div>
      {detail ? <div className="dash-stat__detail">{detail}</div> : null}
      <Link href={link.href} className="dash-card__link">{link.text}</Link>
    </article>
  );
}
