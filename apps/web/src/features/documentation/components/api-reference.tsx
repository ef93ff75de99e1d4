import { docsOperationKey } from '@cellport/shared/docs-keys';
import type { TFunction } from '../../../lib/i18n';
import { useT } from '../../../lib/i18n';
import { Spinner } from '../../../components/ui/spinner';
import { Button } from '../../../components/ui/button';
import { useOpenApi } from '../api/get-openapi';
import { groupOperations, type Field, type Operation } from '../lib/openapi';

function FieldTable({ caption, fields, showIn }: { caption: string; fields: Array<Field & { in?: string }>; showIn?: boolean }) {
  const { t } = useT('docs');
  return (
    <div className="docs-table-scroll" tabIndex={0} role="region" aria-label={caption}>
      <table className="docs-table docs-table--fields">
        <caption>{caption}</caption>
        <thead><tr>
          <th scope="col">{t('reference.field')}</th>
          {showIn ? <th scope="col">{t('reference.in')}</th> : null}
          <th scope="col">{t('reference.type')}</th>
          <th scope="col">{t('reference.required')}</th>
        </tr></thead>
        <tbody>
          {fields.map((f) => (
            <tr key={`${f.in ?? ''}${f.name}`}>
              <td><code>{f.name}</code>{f.description ? <div className="docs-muted">{f.description}</div> : null}</td>
              {showIn ? <td>{f.in}</td> : null}
              <td><code className="docs-type">{f.type}</code></td>
              <td>{f.required ? t('reference.yes') : t('reference.no')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The OpenAPI document stays in English; what the reader sees comes from the docs locale (issue 14, item 4): each
 * operation's summary by its key, each response by its status. An operation the locale does not know shows its path
 * alone (docs-locales.test.ts on the server fails for such a route).
 */
const opSummary = (t: TFunction, op: Operation) => t(`reference.operations.${docsOperationKey(op.method, op.path)}`, { defaultValue: '' });
const statusText = (t: TFunction, status: string) => t(`reference.statuses.${status}`, { defaultValue: t('reference.statuses.other') });

function OperationItem({ op }: { op: Operation }) {
  const { t } = useT('docs');
  const summary = opSummary(t, op);
  return (
    <details className="docs-op" id={op.id}>
      <summary>
        <span className={`docs-method docs-method--${op.method.toLowerCase()}`}>{op.method}</span>
        <code className="docs-op__path">{op.path}</code>
        {summary ? <span className="docs-op__summary">{summary}</span> : null}
        {op.bearer ? <span className="docs-badge">{t('reference.apiKey')}</span> : null}
      </summary>
      <div className="docs-op__body">
        {op.parameters.length ? <FieldTable caption={t('reference.parameters')} fields={op.parameters} showIn /> : null}
        {op.body.length ? <FieldTable caption={t('reference.body')} fields={op.body} /> : null}
        {op.responses.length ? (
          <>
            <h4 className="docs-op__heading">{t('reference.responses')}</h4>
            <ul className="docs-responses">
              {op.responses.map((r) => <li key={r.status}><code>{r.status}</code> {statusText(t, r.status)}</li>)}
            </ul>
          </>
        ) : null}
      </div>
    </details>
  );
}

/** The API reference, read from GET /api/v1/openapi.json and grouped by tag. */
export function ApiReference() {
  const { t } = useT(['docs', 'common']);
  const query = useOpenApi();
  let body;
  if (query.isPending) body = <Spinner size={22} label={t('common:loading')} />;
  else if (query.isError) {
    body = <p className="docs-error" role="alert">{t('reference.loadFailed')} <Button variant="link" size="sm" onClick={() => void query.refetch()}>{t('common:actions.retry')}</Button></p>;
  } else {
    const groups = groupOperations(query.data);
    // Tagged areas first, each open to read; routes without a tag (session pages, sign-in) sit in one closed group.
    const tagged = groups.filter((g) => g.tag !== 'other');
    const rest = groups.find((g) => g.tag === 'other');
    const group = (g: (typeof groups)[number]) => (
      <section key={g.tag} className="docs-group" aria-labelledby={`docs-tag-${g.tag}`}>
        <h3 id={`docs-tag-${g.tag}`} className="docs-group__title">{t(`reference.tags.${g.tag}.title`, { defaultValue: g.tag })}</h3>
        <p className="docs-muted">{t(`reference.tags.${g.tag}.description`, { defaultValue: '' })}</p>
        {g.operations.map((op) => <OperationItem key={op.id} op={op} />)}
      </section>
    );
    body = groups.length === 0 ? <p className="docs-muted">{t('reference.empty')}</p> : (
      <>
        {tagged.map(group)}
        {rest ? (
          <details className="docs-group docs-group--rest">
            <summary className="docs-group__title">{t('reference.other', { count: rest.operations.length })}</summary>
            {rest.operations.map((op) => <OperationItem key={op.id} op={op} />)}
          </details>
        ) : null}
      </>
    );
  }
  return (
    <section className="card docs-section" aria-labelledby="docs-reference-title">
      <h2 id="docs-reference-title" className="docs-section__title">{t('reference.title')}</h2>
      <p className="docs-section__lead">
        {t('reference.lead')} <a href="/api/v1/openapi.json" target="_blank" rel="noopener">openapi.json</a>
      </p>
      {body}
    </section>
  );
}
