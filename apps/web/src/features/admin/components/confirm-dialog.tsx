import { ADMIN_LIMITS } from '@cellport/shared/schemas/admin/common';
import { useState, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useT } from '../../../lib/i18n';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** 'required': a reason of 3-500 characters; 'optional': a note; undefined: none asked. */
  reason?: 'required' | 'optional';
  danger?: boolean;
  busy?: boolean;
  children?: ReactNode;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}

/** Every destructive or money-moving action asks first; some also take a reason for the audit log. */
export function ConfirmDialog({ open, title, description, onClose, ...form }: ConfirmDialogProps) {
  // The form is mounted per opening (the dialog renders nothing while closed), so its reason starts empty: one cleared
  // by an effect after opening could still be the last opening's when the operator's first key came (under load that
  // effect's render has a lower priority than their input), and a quick confirm sent it for this action.
  return (
    <Dialog open={open} onClose={onClose} title={title} description={description} size="sm">
      <ConfirmForm {...form} onClose={onClose} />
    </Dialog>
  );
}

function ConfirmForm({ confirmLabel, reason, danger, busy, children, onConfirm, onClose }: Omit<ConfirmDialogProps, 'open' | 'title' | 'description'>) {
  const { t } = useT('admin');
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const trimmed = text.trim();
  const invalid = reason === 'required'
    ? trimmed.length < ADMIN_LIMITS.reasonMin || trimmed.length > ADMIN_LIMITS.reasonMax
    : trimmed.length > 0 && (trimmed.length < ADMIN_LIMITS.reasonMin || trimmed.length > ADMIN_LIMITS.reasonMax);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!invalid) onConfirm(trimmed);
  };
  return (
    <form onSubmit={submit} noValidate>
      {children}
      {reason ? (
        <div className="field">
          <label htmlFor="admin-confirm-reason">{reason === 'required' ? t('confirm.reason') : t('confirm.note')}</label>
          <textarea
            id="admin-confirm-reason"
            rows={3}
            value={text}
            maxLength={ADMIN_LIMITS.reasonMax}
            required={reason === 'required'}
            aria-invalid={touched && invalid ? true : undefined}
            aria-describedby={touched && invalid ? 'admin-confirm-reason-error' : undefined}
            onChange={(e) => setText(e.target.value)}
          />
          {touched && invalid ? <p id="admin-confirm-reason-error" className="field__error" role="alert">{t('confirm.reasonError')}</p> : null}
        </div>
      ) : null}
      <div className="dialog__footer">
        <Button variant="secondary" onClick={onClose}>{t('actions.cancel')}</Button>
        <Button type="submit" variant={danger ? 'danger' : 'primary'} busy={busy}>{confirmLabel}</Button>
      </div>
    </form>
  );
}
