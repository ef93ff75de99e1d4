import type { Port } from '@cellport/shared/schemas/catalog';
import { useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { useUpdatePort } from '../api/update-port';
import { errorText } from '../../../lib/translate-api-error';
import { whitelistProblem, type WhitelistProblem } from '../lib/whitelist';

/**
 * The IP whitelist: addresses or CIDR ranges allowed to use the port without the password. Entries are checked as
 * they are added (same rules as the server) and the whole list is saved at once.
 */
export function WhitelistDialog({ port, open, onClose }: { port: Port; open: boolean; onClose: () => void }) {
  const { t } = useT(['proxies', 'errors']);
  const [entries, setEntries] = useState<string[]>(port.whitelist);
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<WhitelistProblem>(null);
  const update = useUpdatePort();
  const inputId = useId();
  const errorId = useId();

  function add() {
    const found = whitelistProblem(draft, entries);
    setProblem(found);
    if (found) return;
    setEntries([...entries, draft.trim()]);
    setDraft('');
  }

  function save() {
    update.mutate({ id: port._id, patch: { whitelist: entries } }, {
      onSuccess: () => { toast.success(t('whitelist.done')); onClose(); },
      onError: (error) => toast.error(errorText(t, error)),
    });
  }

  return (
    <Dialog
      open={open} onClose={onClose} title={t('whitelist.title')} description={t('whitelist.text')}
      footer={<>
        <Button variant="secondary" onClick={onClose}>{t('cancel')}</Button>
        <Button onClick={save} busy={update.isPending}>{t('save')}</Button>
      </>}
    >
      <div className="field">
        <label htmlFor={inputId}>{t('whitelist.add')}</label>
        <div className="px-inline">
          <input
            id={inputId} value={draft} placeholder="203.0.113.7 / 10.0.0.0/8 / 2001:db8::/32" spellCheck={false}
            aria-invalid={problem ? true : undefined} aria-describedby={problem ? errorId : undefined}
            onChange={(e) => { setDraft(e.target.value); setProblem(null); }}
            onKeyDown={(e) => { if (e.key === 'Enter') { e.preventDefault(); add(); } }}
          />
          <Button variant="secondary" onClick={add} disabled={!draft.trim()}>{t('whitelist.addButton')}</Button>
        </div>
        {problem ? <p id={errorId} className="field__error" role="alert">{t(`validation.${problem}`)}</p> : null}
      </div>
      {entries.length ? (
        <ul className="px-whitelist" aria-label={t('whitelist.title')}>
          {entries.map((entry) => (
            <li key={entry}>
              <code>{entry}</code>
              <Button variant="ghost" size="sm" aria-label={t('whitelist.remove', { entry })} onClick={() => setEntries(entries.filter((e) => e !== entry))}>
                {t('whitelist.removeShort')}
              </Button>
            </li>
          ))}
        </ul>
      ) : <p className="field__hint">{t('whitelist.empty')}</p>}
    </Dialog>
  );
}
