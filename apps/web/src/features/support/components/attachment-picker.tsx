import { SUPPORT_ATTACHMENT_TYPES, SUPPORT_LIMITS } from '@cellport/shared/schemas/support-constants';
import { useId, useRef } from 'react';
import { Button } from '../../../components/ui/button';
import { formatBytes } from '../../../lib/bytes';
import { useT } from '../../../lib/i18n';
import { errorText } from '../../../lib/translate-api-error';
import { ATTACHMENT_MAX_MB } from '../lib/attachment-check';
import type { AttachmentsState } from './use-attachments';

/**
 * Screenshots for a message: a button that opens the file picker (the message box takes pasted images too), the
 * checks' refusals said in words, and each picked image with its preview, upload progress and a remove button.
 */
export function AttachmentPicker({ state, disabled }: { state: AttachmentsState; disabled?: boolean }) {
  const { t, language } = useT(['support', 'errors']);
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const full = state.items.length >= SUPPORT_LIMITS.attachmentsPerMessage;
  return (
    <div className="sp-attach">
      <div className="sp-attach__controls">
        <input
          ref={input}
          id={`${id}-input`}
          type="file"
          accept={SUPPORT_ATTACHMENT_TYPES.join(',')}
          multiple
          hidden
          aria-label={t('attach.add')}
          data-testid="attachment-input"
          onChange={(event) => {
            state.add([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
        <Button variant="secondary" size="sm" disabled={disabled || full} onClick={() => input.current?.click()} aria-describedby={`${id}-hint`}>
          {t('attach.add')}
        </Button>
        <p id={`${id}-hint`} className="sp-attach__hint">
          {t('attach.hint', { max: ATTACHMENT_MAX_MB, limit: SUPPORT_LIMITS.attachmentsPerMessage })}
        </p>
      </div>
      {state.refused.length ? (
        <div className="sp-attach__refused" role="alert">
          <ul>
            {state.refused.map((file, index) => (
              <li key={`${file.name}-${index}`}>
                {t(`attach.refused.${file.problem}`, { name: file.name, max: ATTACHMENT_MAX_MB, limit: SUPPORT_LIMITS.attachmentsPerMessage })}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {state.items.length ? (
        <ul className="sp-attach__list" aria-label={t('attach.listLabel')}>
          {state.items.map((item) => {
            const percent = Math.round(item.progress * 100);
            return (
              <li key={item.key} className="sp-attach__item" data-testid="attachment-item">
                {item.preview ? <img className="sp-attach__thumb" src={item.preview} alt="" /> : <span className="sp-attach__thumb" aria-hidden="true" />}
                <div className="sp-attach__info">
                  <span className="sp-attach__name">{item.name}</span>
                  <span className="sp-attach__size">{formatBytes(String(item.size), language)}</span>
                  {item.error ? (
                    <span className="sp-attach__error" role="alert">{t('attach.failed', { error: errorText(t, item.error) })}</span>
                  ) : item.attachment ? (
                    <span className="sp-attach__done">{t('attach.uploaded')}</span>
                  ) : (
                    <span className="sp-attach__progress">
                      <progress max={100} value={percent} aria-label={t('attach.uploading', { name: item.name })} />
                      <span aria-hidden="true">{percent}%</span>
                    </span>
                  )}
                </div>
                <Button variant="ghost" size="sm" onClick={() => state.remove(item.key)} aria-label={t('attach.remove', { name: item.name })}>
                  {t('attach.removeShort')}
                </Button>
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
