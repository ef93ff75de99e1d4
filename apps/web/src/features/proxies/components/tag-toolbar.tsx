import type { Port } from '@cellport/shared/schemas/catalog';
import { useId } from 'react';
import { Link, useLocation } from 'wouter';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { errorText } from '../../../lib/translate-api-error';
import { useRotateAll } from '../api/rotate-ports';
import { rotationTargets, tagCounts } from '../lib/port-tags';
import { tagFilterHref } from '../lib/tag-filter-href';

/**
 * Above Your Proxies: show every port or only those with one tag, and act on the ports shown at once — rotate them
 * all (one rotation per modem, with progress) or put them all in the renewal basket. Export follows the same choice.
 */
export function TagToolbar({ ports, shown, tag }: { ports: readonly Port[]; shown: readonly Port[]; tag: string | null }) {
  const { t } = useT(['proxies', 'errors']);
  const [, navigate] = useLocation();
  const selectId = useId();
  const rotateAll = useRotateAll();
  const counts = tagCounts(ports);
  if (!counts.length && !tag) return null;
  const renewable = shown.map((p) => p._id).join(',');
  const rotatable = rotationTargets(shown).length;

  async function rotate() {
    const { rotated, failed } = await rotateAll.run(shown);
    if (!failed.length) { toast.success(t('bulk.rotated', { count: rotated })); return; }
    const first = failed[0]!;
    toast.error(t('bulk.rotatedSome', { count: rotated, failed: failed.length, name: first.port.modem_name, error: errorText(t, first.error) }));
  }

  return (
    <section className="card px-toolbar" aria-label={t('bulk.label')}>
      <div className="px-toolbar__filter">
        <label htmlFor={selectId}>{t('bulk.show')}</label>
        <select id={selectId} value={tag ?? ''} onChange={(e) => navigate(tagFilterHref(e.target.value || null), { replace: true })} data-testid="tag-filter">
          <option value="">{t('bulk.all', { count: ports.length })}</option>
          {counts.map(({ tag: name, count }) => <option key={name} value={name}>{t('bulk.tagged', { tag: name, count })}</option>)}
          {tag && !counts.some((c) => c.tag === tag) ? <option value={tag}>{t('bulk.tagged', { tag, count: 0 })}</option> : null}
        </select>
      </div>
      {tag && shown.length ? (
        <div className="px-toolbar__actions">
          {rotatable ? (
            <Button variant="secondary" size="sm" onClick={() => void rotate()} busy={rotateAll.running} data-testid="rotate-all">
              {t('bulk.rotate', { count: rotatable })}
            </Button>
          ) : null}
          <Link href={`/billing-renewals?ports=${encodeURIComponent(renewable)}`} className="btn btn--secondary btn--sm" data-testid="renew-all">
            {t('bulk.renew', { count: shown.length })}
          </Link>
          <span className="px-toolbar__status" role="status" aria-live="polite" data-testid="rotate-all-progress">
            {rotateAll.progress ? t('bulk.progress', { done: rotateAll.progress.done, total: rotateAll.progress.total }) : null}
          </span>
        </div>
      ) : null}
    </section>
  );
}
