import type { Gateway } from '@cellport/shared/schemas/admin/gateways';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { useT } from '../../../lib/i18n';
import { deleteGateway, useGateways } from '../api/gateways';
import { useAdminMutation } from '../api/use-admin-mutation';
import { gatewayCommand } from '../lib/gateway-command';
import { ConfirmDialog } from './confirm-dialog';
import { GatewayDialog } from './gateway-dialog';
import { EmptyRow, QueryView } from './query-view';

/**
 * Inventory → Gateways (issue 18): the public relays hosts behind NAT are reached through. The list (public host,
 * link URL, pinned hosts, linked now), add/edit/delete, the server's trust key, and for each gateway the line that
 * runs it. Hosts are pinned to a gateway from their own dialog (Hosts tab).
 */
export function GatewaysPanel() {
  const { t } = useT('admin');
  const gateways = useGateways();
  const [editing, setEditing] = useState<Gateway | null | 'new'>(null);
  const [deleting, setDeleting] = useState<Gateway | null>(null);
  const remove = useAdminMutation((g: Gateway) => deleteGateway(g.id), { successKey: 'gateways.deleted', onSuccess: () => setDeleting(null) });
  return (
    <>
      <div className="admin-toolbar admin-toolbar--end">
        <p className="admin-muted admin-toolbar__note">{t('gateways.intro')}</p>
        <Button onClick={() => setEditing('new')}>{t('gateways.add')}</Button>
      </div>
      <QueryView query={gateways}>
        {(data) => (
          <>
            <div className="admin-table-wrap" tabIndex={0} role="region" aria-label={t('gateways.list')} style={{ marginBottom: '1.25rem' }}>
              <table className="admin-table">
                <caption className="visually-hidden">{t('gateways.list')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('gateways.name')}</th><th scope="col">{t('gateways.publicHost')}</th><th scope="col">{t('gateways.linkUrl')}</th>
                    <th scope="col" className="num">{t('gateways.hosts')}</th><th scope="col" className="num">{t('gateways.linked')}</th>
                    <th scope="col"><span className="visually-hidden">{t('fields.actions')}</span></th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.length === 0 ? <EmptyRow colSpan={6}>{t('gateways.none')}</EmptyRow> : null}
                  {data.items.map((g) => (
                    <tr key={g.id}>
                      <th scope="row">{g.name}</th>
                      <td className="mono">{g.publicHost}</td>
                      <td className="mono">{g.linkUrl}</td>
                      <td className="num">{g.hostCount}</td>
                      <td className="num">{g.linkedHostCount}</td>
                      <td className="admin-actions">
                        <Button size="sm" variant="secondary" onClick={() => setEditing(g)} aria-label={t('gateways.editNamed', { name: g.name })}>{t('actions.edit')}</Button>
                        <Button size="sm" variant="danger" onClick={() => setDeleting(g)} aria-label={t('gateways.deleteNamed', { name: g.name })}>{t('actions.delete')}</Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <section className="card admin-section" aria-labelledby="gateway-trust-key">
              <h2 id="gateway-trust-key">{t('gateways.trustKey')}</h2>
              <p className="admin-key" data-testid="gateway-trust-key">
                <code>{data.trustKey}</code> <CopyButton value={data.trustKey} label={t('gateways.copyTrustKey')} />
              </p>
              <p className="admin-muted">{t('gateways.trustKeyHint')}</p>
            </section>
            {data.items.map((g) => <RunGateway key={g.id} gateway={g} trustKey={data.trustKey} />)}
          </>
        )}
      </QueryView>
      {editing !== null ? <GatewayDialog key={editing === 'new' ? 'new' : editing.id} gateway={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        title={deleting ? t('gateways.deleteTitle', { name: deleting.name }) : ''}
        description={t('gateways.deleteText')}
        confirmLabel={t('actions.delete')}
        danger
        busy={remove.isPending}
        onConfirm={() => { if (deleting) remove.mutate(deleting); }}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}

/** The line that runs one gateway, with a copy button. */
function RunGateway({ gateway: g, trustKey }: { gateway: Gateway; trustKey: string }) {
  const { t } = useT('admin');
  const headingId = `gateway-run-${g.id}`;
  const command = gatewayCommand(g, trustKey);
  return (
    <section className="card admin-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('gateways.runTitle', { name: g.name })}</h2>
      <p>{t('gateways.runHowTo')}</p>
      <pre className="admin-code" data-testid="gateway-command"><code>{command}</code></pre>
      <p className="admin-actions-row"><CopyButton value={command} label={t('gateways.copyCommand', { name: g.name })} /></p>
      {g.linkUrl.startsWith('https:') ? <p className="admin-muted">{t('gateways.tlsHint')}</p> : null}
    </section>
  );
}
