import type { AdminUser, CreateAdminResponse } from '@cellport/shared/schemas/admin/admins';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { CopyButton } from '../../../components/ui/copy-button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { dateTime } from '../../../lib/dates';
import { useT } from '../../../lib/i18n';
import { createAdmin, removeAdmin, useAdmins } from '../api/admins';
import { useAdminMe } from '../api/get-me';
import { useAdminMutation } from '../api/use-admin-mutation';
import { ConfirmDialog } from '../components/confirm-dialog';
import { PageTitle } from '../components/page-title';
import { EmptyRow, QueryView } from '../components/query-view';

/** Who can use the console: add by e-mail (an existing account is promoted, else one is made), remove. */
export function AdminsPage() {
  const { t, language } = useT('admin');
  const admins = useAdmins();
  const me = useAdminMe();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const [removing, setRemoving] = useState<AdminUser | null>(null);
  const [created, setCreated] = useState<CreateAdminResponse | null>(null);
  const add = useAdminMutation(createAdmin, {
    successKey: (r) => (r.created ? 'admins.created' : 'admins.promoted'),
    onSuccess: (r) => { setEmail(''); setTouched(false); if (r.password) setCreated(r); },
  });
  const remove = useAdminMutation((a: AdminUser) => removeAdmin(a.id), { successKey: 'admins.removed', onSuccess: () => setRemoving(null) });
  const emailOk = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim());
  return (
    <>
      <PageTitle title={t('nav.admins')} description={t('admins.description')} />
      <form className="card admin-section admin-inline-form" noValidate onSubmit={(e) => { e.preventDefault(); setTouched(true); if (emailOk) add.mutate({ email: email.trim() }); }}>
        <TextField label={t('fields.email')} type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)}
          hint={t('admins.addHint')} error={touched && !emailOk ? t('settings.emailError') : undefined} />
        <Button type="submit" busy={add.isPending}>{t('admins.add')}</Button>
      </form>
      <QueryView query={admins}>
        {(data) => (
          <div className="admin-table-wrap" tabIndex={0}>
            <table className="admin-table">
              <thead><tr><th scope="col">{t('fields.email')}</th><th scope="col">{t('fields.personName')}</th><th scope="col">{t('fields.twoFactor')}</th><th scope="col">{t('fields.createdAt')}</th><th scope="col"><span className="visually-hidden">{t('fields.actions')}</span></th></tr></thead>
              <tbody>
                {data.items.length === 0 ? <EmptyRow colSpan={5}>{t('admins.empty')}</EmptyRow> : null}
                {data.items.map((a) => (
                  <tr key={a.id}>
                    <td>{a.email}{a.id === me.data?.id ? <span className="admin-muted"> ({t('admins.you')})</span> : null}</td>
                    <td>{a.name}</td><td>{a.uses2fa ? t('yes') : t('no')}</td><td>{dateTime(a.createdAt, language)}</td>
                    <td className="admin-actions">
                      {a.id !== me.data?.id ? <Button size="sm" variant="danger" onClick={() => setRemoving(a)} aria-label={t('admins.removeNamed', { email: a.email })}>{t('admins.remove')}</Button> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryView>
      <ConfirmDialog open={removing !== null} title={t('admins.removeTitle')} description={t('admins.removeText', { email: removing?.email ?? '' })}
        confirmLabel={t('admins.remove')} danger busy={remove.isPending} onConfirm={() => { if (removing) remove.mutate(removing); }} onClose={() => setRemoving(null)} />
      <Dialog open={created !== null} onClose={() => setCreated(null)} title={t('admins.passwordTitle')} description={t('admins.passwordText', { email: created?.admin.email ?? '' })} size="sm"
        footer={<Button onClick={() => setCreated(null)}>{t('admins.passwordDone')}</Button>}>
        <p className="admin-password"><code>{created?.password}</code> {created?.password ? <CopyButton value={created.password} /> : null}</p>
      </Dialog>
    </>
  );
}
