import { gatewayRequestSchema, type Gateway, type GatewayRequest } from '@cellport/shared/schemas/admin/gateways';
import * as z from 'zod/mini';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { TextField } from '../../../components/ui/text-field';
import { useT } from '../../../lib/i18n';
import { createGateway, updateGateway } from '../api/gateways';
import { useAdminMutation } from '../api/use-admin-mutation';

type Field = keyof GatewayRequest;
const FIELDS: readonly Field[] = ['name', 'publicHost', 'linkUrl'];

/** Add a gateway or edit one: its name, the public host customers connect to, the link URL agents dial. */
export function GatewayDialog({ gateway, onClose }: { gateway: Gateway | null; onClose: () => void }) {
  const { t } = useT('admin');
  // Open while mounted: the page mounts it for each opening, keyed by the gateway, so the draft starts filled (filled by
  // an effect after opening, it could lag behind the operator's first keys under load and a save checked it empty).
  const [draft, setDraft] = useState<GatewayRequest>(() => ({ name: gateway?.name ?? '', publicHost: gateway?.publicHost ?? '', linkUrl: gateway?.linkUrl ?? '' }));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const save = useAdminMutation(
    (body: GatewayRequest) => (gateway ? updateGateway({ id: gateway.id, ...body }) : createGateway(body)),
    { successKey: gateway ? 'gateways.saved' : 'gateways.added', onSuccess: onClose },
  );
  const set = (field: Field, value: string) => setDraft((d) => ({ ...d, [field]: value }));
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    // The server's own schema: the same rules, so what passes here is not refused there for its form.
    const parsed = z.safeParse(gatewayRequestSchema, draft);
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        if (FIELDS.includes(field)) next[field] ??= t(`gateways.invalid.${field}`);
      }
      setErrors(next);
      return;
    }
    setErrors({});
    save.mutate(parsed.data);
  };
  return (
    <Dialog open onClose={onClose} title={gateway ? t('gateways.edit') : t('gateways.add')} size="sm">
      <form onSubmit={submit} noValidate>
        <TextField label={t('gateways.name')} value={draft.name} maxLength={64} onChange={(e) => set('name', e.target.value)} error={errors.name} />
        <TextField label={t('gateways.publicHost')} value={draft.publicHost} maxLength={253} autoCapitalize="none" spellCheck={false}
          onChange={(e) => set('publicHost', e.target.value)} hint={t('gateways.publicHostHint')} error={errors.publicHost} />
        <TextField label={t('gateways.linkUrl')} value={draft.linkUrl} maxLength={300} type="url" autoCapitalize="none" spellCheck={false}
          onChange={(e) => set('linkUrl', e.target.value)} hint={t('gateways.linkUrlHint')} error={errors.linkUrl} />
        <div className="dialog__footer">
          <Button variant="secondary" onClick={onClose}>{t('actions.cancel')}</Button>
          <Button type="submit" busy={save.isPending}>{gateway ? t('actions.save') : t('gateways.add')}</Button>
        </div>
      </form>
    </Dialog>
  );
}
