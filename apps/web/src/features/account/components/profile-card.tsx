import type { Me } from '@cellport/shared/schemas/account';
import { useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { TextAreaField, TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { useUpdateProfile } from '../api/update-profile';
import { errorText, fieldErrors } from '../lib/form-text';
import { loadAccountChecks, preloadAccountChecks } from '../lib/load-account-checks';

/**
 * Name, and the company, billing address and VAT number printed on invoices (issue 27, item 3); the e-mail is shown
 * but not editable here (it is the sign-in login).
 */
export function ProfileCard({ me }: { me: Me }) {
  const { t } = useT(['account', 'common', 'validation', 'errors']);
  const [name, setName] = useState(me.name);
  const [company, setCompany] = useState(me.company_name);
  const [address, setAddress] = useState(me.billing_address);
  const [vat, setVat] = useState(me.vat_number);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const update = useUpdateProfile();
  const changed = name !== me.name || company !== me.company_name || address !== me.billing_address || vat !== me.vat_number;

  async function submit(event: FormEvent) {
    event.preventDefault();
    let checks;
    try { checks = await loadAccountChecks(); } catch { return toast.error(t('errors:NETWORK')); }
    const parsed = checks.checkProfile({ name, company_name: company, billing_address: address, vat_number: vat });
    if (!parsed.success) return setErrors(fieldErrors(t, parsed.error.issues));
    setErrors({});
    update.mutate(parsed.data, {
      onSuccess: (saved) => {
        setName(saved.name); setCompany(saved.company_name); setAddress(saved.billing_address); setVat(saved.vat_number);
        toast.success(t('profile.saved'));
      },
      onError: (error) => toast.error(errorText(t, error)),
    });
  }

  return (
    <section className="card account-card" aria-labelledby="account-profile-title">
      <header className="account-card__header">
        <h2 id="account-profile-title">{t('profile.title')}</h2>
        <p>{t('profile.description')}</p>
      </header>
      <form onSubmit={submit} onFocus={preloadAccountChecks} noValidate>
        <div className="field">
          <span className="account-card__label">{t('profile.email')}</span>
          <p className="account-card__readonly">
            <span>{me.email}</span>
            <span className={`badge ${me.isVerified ? 'badge--success' : 'badge--warning'}`}>
              {me.isVerified ? t('profile.verified') : t('profile.notVerified')}
            </span>
          </p>
        </div>
        <TextField label={t('profile.name')} name="name" autoComplete="name" value={name}
          onChange={(e) => setName(e.target.value)} error={errors.name} required />
        <TextField label={t('profile.company')} name="company_name" autoComplete="organization" value={company}
          onChange={(e) => setCompany(e.target.value)} error={errors.company_name} hint={t('common:optional')} />
        <TextAreaField label={t('profile.billingAddress')} name="billing_address" autoComplete="street-address" rows={3}
          value={address} onChange={(e) => setAddress(e.target.value)} error={errors.billing_address} hint={t('profile.onInvoices')} />
        <TextField label={t('profile.vatNumber')} name="vat_number" value={vat} maxLength={40}
          onChange={(e) => setVat(e.target.value)} error={errors.vat_number} hint={t('profile.onInvoices')} />
        <div className="account-card__actions">
          <Button type="submit" busy={update.isPending} disabled={!changed}>{t('common:actions.save')}</Button>
        </div>
      </form>
    </section>
  );
}
