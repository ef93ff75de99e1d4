import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useSearch } from 'wouter';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { PageHeader } from '../../components/ui/page-header';
import { Spinner } from '../../components/ui/spinner';
import { useT } from '../../lib/i18n';
import { localizedModemsQuery, rotationTagsQuery } from '../../store/catalog-queries';
import { portQuotasQuery } from '../traffic';
import { ExportMenu } from './components/export-menu';
import { PortCard } from './components/port-card';
import { TagToolbar } from './components/tag-toolbar';
import { tagFilterHref } from './lib/tag-filter-href';
import { errorText } from '../../lib/translate-api-error';
import './proxies.css';

/** Your Proxies: every port the customer holds, newest purchase (from ?new=) first and highlighted. */
export default function ProxiesPage() {
  // 'traffic' too: each card's QuotaMeter speaks it, and the quotas arrive after the cards. Loaded only then, the
  // meter suspended the whole page into the shell's spinner and back: a port card's open disclosure lost its focus
  // (and a key pressed meanwhile went nowhere), which a browser test saw as the fingerprint section "drawn closed".
  const { t, language } = useT(['proxies', 'errors', 'traffic']);
  const query = useQuery(localizedModemsQuery(language));
  const tags = useQuery(rotationTagsQuery(language));
  // Each port's limits and this month's traffic against its quota (issue 18); the cards show it once it is here.
  const quotas = useQuery(portQuotasQuery);
  const quotaOf = useMemo(() => new Map((quotas.data?.data ?? []).map((q) => [q.port_id, q])), [quotas.data]);
  // The cached list is the one home of the ports: live changes (rotation status by IMEI, renamed ports, new
  // links) are written into it by the spec §4 modem actions (store/modems.ts).
  const modems = query.data;
  const search = useSearch();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const newIds = useMemo(() => new Set((params.get('new') ?? '').split(',').filter(Boolean)), [params]);
  // ?tag= shows only the ports with that tag (lower case, as tags are kept).
  const tag = params.get('tag')?.trim().toLowerCase() || null;
  const ports = useMemo(
    () => [...(modems ?? [])].sort((a, b) => Number(newIds.has(b._id)) - Number(newIds.has(a._id))),
    [modems, newIds],
  );
  const shown = useMemo(() => (tag ? ports.filter((p) => p.tags.includes(tag)) : ports), [ports, tag]);
  const addLink = <Link href="/add-proxy" className="btn">{t('addMore')}</Link>;

  let body;
  if (query.isPending) {
    body = <div className="px-loading"><Spinner label={t('loading')} size={28} /> {t('loading')}</div>;
  } else if (query.isError) {
    body = (
      <div className="card px-error" role="alert">
        <p>{errorText(t, query.error)}</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>{t('retry')}</Button>
      </div>
    );
  } else if (!ports.length) {
    body = <EmptyState title={t('empty.title')} action={addLink}><p>{t('empty.text')}</p></EmptyState>;
  } else {
    body = (
      <>
        <TagToolbar ports={ports} shown={shown} tag={tag} />
        {shown.length ? (
          <>
            <ExportMenu ports={shown} tag={tag} />
            <div className="px-list">
              {shown.map((port) => <PortCard key={port._id} port={port} isNew={newIds.has(port._id)} rotationTags={tags.data ?? []} quota={quotaOf.get(port._id)} />)}
            </div>
          </>
        ) : (
          <EmptyState title={t('bulk.noneTitle', { tag })} action={<Link href={tagFilterHref(null)} className="btn btn--secondary">{t('bulk.showAll')}</Link>}>
            <p>{t('bulk.noneText')}</p>
          </EmptyState>
        )}
      </>
    );
  }

  return (
    <section className="px-page">
      <PageHeader title={t('title')} description={t('description')} actions={ports.length ? addLink : undefined} />
      {body}
    </section>
  );
}
