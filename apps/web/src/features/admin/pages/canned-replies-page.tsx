import { SUPPORT_LIMITS, type CannedReply } from '@cellport/shared/schemas/support';
import { useState } from 'react';
import { Link } from 'wouter';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextAreaField, TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n';
import { createCannedReply, deleteCannedReply, updateCannedReply, useCannedReplies } from '../api/support';
import { useAdminMutation } from '../api/use-admin-mutation';
import { ConfirmDialog } from '../components/confirm-dialog';
import { PageTitle } from '../components/page-title';
import { EmptyRow, QueryView } from '../components/query-view';

/** Canned replies: texts operators insert into a reply from the ticket page. Add, edit, delete (asked first). */
export function CannedRepliesPage() {
  const { t } = useT('admin');
  const replies = useCannedReplies();
  const [editing, setEditing] = useState<CannedReply | 'new' | null>(null);
  const [deleting, setDeleting] = useState<CannedReply | null>(null);
  const remove = useAdminMutation((reply: CannedReply) => deleteCannedReply(reply._id), { successKey: 'support.canned.deleted', onSuccess: () => setDeleting(null) });
  return (
    <>
      <p className="admin-back"><Link href="/support">← {t('support.back')}</Link></p>
      <PageTitle
        title={t('support.canned.title')}
        description={t('support.canned.description')}
        actions={<Button onClick={() => setEditing('new')}>{t('support.canned.add')}</Button>}
      />
      <QueryView query={replies}>
        {(items) => (
          <div className="admin-table-wrap" tabIndex={0} role="region" aria-label={t('support.canned.title')}>
            <table className="admin-table" data-testid="canned-replies">
              <thead>
                <tr>
                  <th scope="col">{t('support.canned.name')}</th><th scope="col">{t('support.canned.text')}</th>
                  <th scope="col"><span className="visually-hidden">{t('fields.actions')}</span></th>
                </tr>
              </thead>
              <tbody>
                {items.length === 0 ? <EmptyRow colSpan={3}>{t('support.canned.empty')}</EmptyRow> : null}
                {items.map((reply) => (
                  <tr key={reply._id}>
                    <td>{reply.title}</td>
                    <td className="admin-support__canned-body">{reply.body}</td>
                    <td className="admin-actions">
                      <Button size="sm" variant="secondary" onClick={() => setEditing(reply)} aria-label={t('actions.editNamed', { name: reply.title })}>{t('actions.edit')}</Button>
                      <Button size="sm" variant="ghost" onClick={() => setDeleting(reply)} aria-label={t('actions.deleteNamed', { name: reply.title })}>{t('actions.delete')}</Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
      {editing !== null ? (
        <CannedReplyDialog key={editing === 'new' ? 'new' : editing._id} reply={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title={t('support.canned.deleteTitle')}
        description={t('support.canned.deleteText', { name: deleting?.title ?? '' })}
        confirmLabel={t('actions.delete')}
        danger
        busy={remove.isPending}
        onConfirm={() => { if (deleting) remove.mutate(deleting); }}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}

/**
 * Mounted for each opening, keyed by the reply: its fields start filled. Filled by an effect after opening, they could
 * lag behind the operator's Save under load (that render has a lower priority than their input), which then checked
 * empty fields.
 */
function CannedReplyDialog({ reply, onClose }: { reply: CannedReply | null; onClose: () => void }) {
  const { t } = useT('admin');
  const [title, setTitle] = useState(reply?.title ?? '');
  const [body, setBody] = useState(reply?.body ?? '');
  const [touched, setTouched] = useState(false);
  const save = useAdminMutation(
    (values: { title: string; body: string }) => (reply ? updateCannedReply({ id: reply._id, ...values }) : createCannedReply(values)),
    { successKey: reply ? 'support.canned.saved' : 'support.canned.created', onSuccess: onClose },
  );
  const titleBad = touched && !title.trim();
  const bodyBad = touched && !body.trim();
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (title.trim() && body.trim()) save.mutate({ title: title.trim(), body: body.trim() });
  };
  return (
    <Dialog open onClose={onClose} title={reply ? t('support.canned.edit') : t('support.canned.add')}>
      <form onSubmit={submit} noValidate>
        <TextField label={t('support.canned.name')} value={title} maxLength={SUPPORT_LIMITS.cannedTitleMax} onChange={(e) => setTitle(e.target.value)} error={titleBad ? t('required') : undefined} />
        <TextAreaField label={t('support.canned.text')} rows={8} value={body} maxLength={SUPPORT_LIMITS.bodyMax}
          onChange={(e) => setBody(e.target.value)} error={bodyBad ? t('required') : undefined} />
        <div className="dialog__footer">
          <Button variant="secondary" onClick={onClose}>{t('actions.cancel')}</Button>
          <Button type="submit" busy={save.isPending}>{reply ? t('actions.save') : t('support.canned.add')}</Button>
        </div>
      </form>
    </Dialog>
  );
}
