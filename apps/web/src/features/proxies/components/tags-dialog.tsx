import { CATALOG_LIMITS, portNoteSchema, type Port } from '@cellport/shared/schemas/catalog';
import { useId, useState } from 'react';
import * as z from 'zod/mini';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { errorText } from '../../../lib/translate-api-error';
import { useUpdatePort } from '../api/update-port';
import { tagProblem, type TagProblem } from '../lib/tag-problem';

/**
 * A port's tags (to filter Your Proxies and act on a group) and the customer's note. Tags are checked as they are
 * added, by the server's own rules; tags and note are saved together.
 */
export function TagsDialog({ port, open, onClose }: { port: Port; open: boolean; onClose: () => void }) {
  const { t } = useT(['proxies', 'errors']);
  const [tags, setTags] = useState<string[]>(port.tags);
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<TagProblem>(null);
  const [note, setNote] = useState(port.note);
  const update = useUpdatePort();
  const tagId = useId();
  const tagErrorId = useId();
  const tagHintId = useId();
  const noteId = useId();
  const noteErrorId = useId();
  const noteTooLong = !z.safeParse(portNoteSchema, note).success;

  /** The tags with the typed one added, or null (and the reason shown) when it cannot be. */
  function withDraft(): string[] | null {
    if (!draft.trim()) return tags;
    const found = tagProblem(draft, tags);
    setProblem(found.problem);
    return found.problem ? null : [...tags, found.tag].sort();
  }

  function add() {
    const next = withDraft();
    if (next) { setTags(next); setDraft(''); }
  }

  function save() {
    // A tag typed and not yet added is saved too, as a person who pressed Save expects.
    const next = withDraft();
    if (!next || noteTooLong) return;
    update.mutate({ id: port._id, patch: { tags: next, note } }, {
      onSuccess: () => { toast.success(t('tags.done')); onClose(); },
      onError: (error) => toast.error(errorText(t, error)),
    });
  }

  return (
    <Dialog
      open={open} onClose={onClose} title={t('tags.title', { name: port.modem_name })} description={t('tags.text')}
      footer={<>
        <Button variant="secondary" onClick={onClose}>{t('cancel')}</Button>
        <Button onClick={save} busy={update.isPending}>{t('save')}</Button>
      </>}
    >
      <div className="field">
        <label htmlFor={tagId}>{t('tags.add')}</label>
        <div className="px-inline">
          <input
            id={tagId} value={draft} placeholder="scraper-eu" spellCheck={false} autoCapitalize="none"
            maxLength={CATALOG_LIMITS.portTagMax + 8}
            aria-invalid={problem ? true : undefined} aria-describedby={problem ? `${tagErrorId} ${tagHintId}` : tagHintId}
            onChange={(e) => { setDraft(e.target.value); setProblem(null); }}
            onKeyDown={(e) => { if (e.key === 'Enter' || e.key === ',') { e.preventDefault(); add(); } }}
          />
          <Button variant="secondary" onClick={add} disabled={!draft.trim()}>{t('tags.addButton')}</Button>
        </div>
        <p id={tagHintId} className="field__hint">{t('tags.hint')}</p>
        {problem ? <p id={tagErrorId} className="field__error" role="alert">{t(`validation.${problem}`)}</p> : null}
      </div>
      {tags.length ? (
        <ul className="px-tag-list" aria-label={t('tags.list')}>
          {tags.map((tag) => (
            <li key={tag} className="px-tag">
              <span>{tag}</span>
              <button type="button" className="px-tag__remove" aria-label={t('tags.remove', { tag })} onClick={() => setTags(tags.filter((x) => x !== tag))}>×</button>
            </li>
          ))}
        </ul>
      ) : <p className="field__hint">{t('tags.empty')}</p>}
      <div className="field">
        <label htmlFor={noteId}>{t('tags.note')}</label>
        <textarea
          id={noteId} value={note} rows={3} maxLength={CATALOG_LIMITS.portNoteMax + 50}
          aria-invalid={noteTooLong || undefined} aria-describedby={noteTooLong ? noteErrorId : undefined}
          onChange={(e) => setNote(e.target.value)}
        />
        {noteTooLong ? <p id={noteErrorId} className="field__error" role="alert">{t('validation.portNote')}</p> : null}
      </div>
    </Dialog>
  );
}
