import type { Port } from '@cellport/shared/schemas/catalog';
import { Link } from 'wouter';
import { useT } from '../../../lib/i18n';
import { tagFilterHref } from '../lib/tag-filter-href';

/** A port's tags, each a link that shows only the ports with it, and the customer's note. Nothing when it has neither. */
export function PortLabels({ port }: { port: Pick<Port, 'tags' | 'note'> }) {
  const { t } = useT('proxies');
  if (!port.tags.length && !port.note) return null;
  return (
    <div className="px-labels">
      {port.tags.length ? (
        <ul className="px-tag-list" aria-label={t('tags.list')}>
          {port.tags.map((tag) => (
            <li key={tag}>
              <Link href={tagFilterHref(tag)} className="px-tag px-tag--link" aria-label={t('tags.showTagged', { tag })}>{tag}</Link>
            </li>
          ))}
        </ul>
      ) : null}
      {port.note ? <p className="px-note" data-testid="port-note"><span className="px-note__label">{t('tags.note')}:</span> {port.note}</p> : null}
    </div>
  );
}
