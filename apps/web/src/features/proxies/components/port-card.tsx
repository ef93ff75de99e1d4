import type { Port, RotationTag } from '@cellport/shared/schemas/catalog';
import type { PortQuota } from '@cellport/shared/schemas/traffic';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'wouter';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n';
import { formatUsd } from '../../../lib/money';
import { dateTime, expiryState, relativeTime } from '../../../lib/dates';
import { QuotaMeter } from '../../traffic';
import { AutoRenewSwitch } from './auto-renew-switch';
import { SubscriptionLine } from './subscription-line';
import { usePortSubscription } from '../../../store/subscriptions';
import { CredentialRow } from './credential-row';
import { PortLabels } from './port-labels';
import { RotateControl } from './rotate-control';
import { RotationIntervalSelect } from './rotation-interval-select';
import { RotationLinkControl } from './rotation-link-control';
import { SharedRotationNote } from './shared-rotation-note';
import { StatusBadge } from './status-badge';
import { FingerprintDetails } from './fingerprint-details';
import { PortHistoryDetails } from './port-history';
import { TryIt } from './try-it';

// The edit dialogs load when one opens: their form checks (and zod with them) stay out of the page's first download
// (issue 31, item 4; bench/page-bundles.mjs).
const RenameDialog = lazy(() => import('./rename-dialog').then((m) => ({ default: m.RenameDialog })));
const CredentialsDialog = lazy(() => import('./credentials-dialog').then((m) => ({ default: m.CredentialsDialog })));
const WhitelistDialog = lazy(() => import('./whitelist-dialog').then((m) => ({ default: m.WhitelistDialog })));
const TagsDialog = lazy(() => import('./tags-dialog').then((m) => ({ default: m.TagsDialog })));
const ReplaceDialog = lazy(() => import('./replace-dialog').then((m) => ({ default: m.ReplaceDialog })));

type Editing = 'rename' | 'credentials' | 'whitelist' | 'tags' | 'replace' | null;

/** Everything about one port: where it is, how to connect, and its controls. */
export function PortCard({ port, isNew, rotationTags, quota }: {
  port: Port; isNew: boolean; rotationTags: readonly RotationTag[]; quota?: PortQuota | undefined;
}) {
  const { t, language } = useT('proxies');
  const [editing, setEditing] = useState<Editing>(null);
  const expiry = expiryState(port.expiresAt);
  const subscription = usePortSubscription(port._id);
  const place = [port.country.name, port.carrier.name, port.region?.name].filter(Boolean).join(' · ');
  const headingId = `port-${port._id}`;

  return (
    <article className={`card px-card${isNew ? ' px-card--new' : ''}${expiry !== 'ok' ? ` px-card--${expiry}` : ''}`} aria-labelledby={headingId} data-testid="port-card">
      <header className="px-card__head">
        <div>
          <h2 id={headingId} className="px-card__name">{port.modem_name}</h2>
          <p className="px-card__place">
            {place} · {port.tariffName[language] || port.tariffName.en} · {formatUsd(port.price)} / {t(`period.${port.period}`)}
          </p>
        </div>
        <div className="px-card__badges">
          {isNew ? <span className="px-badge px-badge--new">{t('new')}</span> : null}
          <StatusBadge port={port} />
        </div>
      </header>

      <PortLabels port={port} />

      <dl className="px-creds">
        <CredentialRow label={t('ip')} value={port.ext_ip} testId="port-ip" />
        <CredentialRow label={t('http')} value={`${port.host}:${port.http_port}`} testId="port-http" />
        <CredentialRow label={t('socks')} value={`${port.host}:${port.socks_port}`} testId="port-socks" />
        <CredentialRow label={t('login')} value={port.login} testId="port-login" />
        <CredentialRow label={t('password')} value={port.password} testId="port-password" />
        {/* A shared port has no working rotation link: it rotates on its modem's schedule. */}
        {port.isShared ? null : <RotationLinkControl port={port} />}
      </dl>

      <TryIt port={port} defaultOpen={isNew} />
      <PortHistoryDetails portId={port._id} />
      <FingerprintDetails port={port} />

      {quota ? <QuotaMeter quota={quota} /> : null}

      <div className="px-card__meta">
        <p className={`px-expiry px-expiry--${expiry}`}>
          <span>{expiry === 'expired' ? t('expired') : t('expires')}</span>{' '}
          <strong>{relativeTime(port.expiresAt, language)}</strong>{' '}
          <time dateTime={port.expiresAt}>({dateTime(port.expiresAt, language)})</time>
        </p>
        <RotationIntervalSelect port={port} tags={rotationTags} />
        {/* A card subscription renews the port on its own schedule; the balance's auto-renew would pay twice. */}
        {subscription ? <SubscriptionLine subscription={subscription} /> : <AutoRenewSwitch port={port} />}
      </div>

      <div className="px-card__actions">
        {port.isShared ? <SharedRotationNote port={port} /> : <RotateControl port={port} />}
        <div className="px-card__edit">
          <Button variant="secondary" size="sm" onClick={() => setEditing('rename')} aria-label={t('rename.for', { name: port.modem_name })}>{t('rename.button')}</Button>
          <Button variant="secondary" size="sm" onClick={() => setEditing('credentials')}>{t('credentials.button')}</Button>
          <Button variant="secondary" size="sm" onClick={() => setEditing('whitelist')}>{t('whitelist.button', { count: port.whitelist.length })}</Button>
          <Button variant="secondary" size="sm" onClick={() => setEditing('tags')} aria-label={t('tags.for', { name: port.modem_name })} data-testid="edit-tags">{t('tags.button')}</Button>
          <Button variant="secondary" size="sm" onClick={() => setEditing('replace')} disabled={port.status === 'expired'} data-testid="replace-modem">{t('replace.button')}</Button>
          <Link href={`/support?port=${encodeURIComponent(port._id)}`} className="btn btn--ghost btn--sm" aria-label={t('help.for', { name: port.modem_name })}>{t('help.link')}</Link>
        </div>
      </div>

      <Suspense fallback={null}>
        {editing === 'rename' ? <RenameDialog port={port} open onClose={() => setEditing(null)} /> : null}
        {editing === 'credentials' ? <CredentialsDialog port={port} open onClose={() => setEditing(null)} /> : null}
        {editing === 'whitelist' ? <WhitelistDialog port={port} open onClose={() => setEditing(null)} /> : null}
        {editing === 'tags' ? <TagsDialog port={port} open onClose={() => setEditing(null)} /> : null}
        {editing === 'replace' ? <ReplaceDialog port={port} open onClose={() => setEditing(null)} /> : null}
      </Suspense>
    </article>
  );
}
