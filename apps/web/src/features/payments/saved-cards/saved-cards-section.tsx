import type { SavedCard } from '@cellport/shared/schemas/payments';
import { useCallback, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n';
import { toast } from '../../../lib/toast';
import { useSettings } from '../../../store/settings';
import { useRemoveSavedCard, useSaveCard, useSavedCards } from '../api/saved-cards';
import type { CardConfirmer } from '../card/card-confirmer';
import { CardEntry } from '../card/card-entry';
import { paymentErrorText } from '../lib/error-text';
import { cardExpiry, cardLabel, isExpired } from './saved-card';

/**
 * The Account page's saved cards: each card's network, last four digits and expiry, "Add a card" (the same card
 * form as the card modal, confirmed through a setup intent) and "Remove" after a confirmation. Hidden when card
 * payments are off.
 */
export function SavedCardsSection({ className }: { className?: string }) {
  const { t } = useT(['payments', 'common', 'errors']);
  const provider = useSettings().card?.provider;
  const on = provider === 'stripe' || provider === 'sandbox';
  const cards = useSavedCards(on);
  const remove = useRemoveSavedCard();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<SavedCard | null>(null);
  if (!on) return null;
  const label = (c: SavedCard) => cardLabel(c, t('savedCards.unknownBrand'));

  return (
    <section className={`card ${className ?? ''}`} aria-labelledby="saved-cards-title" data-testid="saved-cards">
      <header className="account-card__header account-card__header--row">
        <div>
          <h2 id="saved-cards-title">{t('savedCards.title')}</h2>
          <p>{t('savedCards.description')}</p>
        </div>
        <Button variant="secondary" onClick={() => setAdding(true)}>{t('savedCards.add')}</Button>
      </header>

      {cards.isPending ? (
        <div className="account-card__loading"><Spinner label={t('savedCards.loading')} /></div>
      ) : cards.isError ? (
        <div className="account-card__error" role="alert">
          <p>{t('savedCards.loadFailed')}</p>
          <Button variant="secondary" size="sm" onClick={() => void cards.refetch()}>{t('common:actions.retry')}</Button>
        </div>
      ) : cards.data.length === 0 ? (
        <p className="saved-cards__empty">{t('savedCards.empty')}</p>
      ) : (
        <ul className="saved-cards">
          {cards.data.map((c) => (
            <li key={c.id} className="saved-card" data-testid="saved-card">
              <div>
                <p className="saved-card__name">
                  {label(c)}
                  {isExpired(c) ? <span className="badge badge--warning">{t('savedCards.expired')}</span> : null}
                </p>
                <p className="saved-card__expiry">{t('savedCards.expires', { date: cardExpiry(c) })}</p>
              </div>
              <Button variant="secondary" size="sm" aria-label={t('savedCards.removeLabel', { card: label(c) })} onClick={() => setRemoving(c)}>
                {t('savedCards.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}

      {adding ? <AddCardDialog onClose={() => setAdding(false)} /> : null}
      <Dialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        size="sm"
        title={removing ? t('savedCards.removeTitle', { card: label(removing) }) : ''}
        description={t('savedCards.removeText')}
        footer={<>
          <Button variant="secondary" onClick={() => setRemoving(null)}>{t('common:actions.cancel')}</Button>
          <Button variant="danger" busy={remove.isPending} onClick={() => removing && remove.mutate(removing.id, {
            onSuccess: () => { setRemoving(null); toast.success(t('savedCards.removed')); },
            onError: (e) => toast.error(paymentErrorText(t, e)),
          })}>{t('savedCards.remove')}</Button>
        </>}
      />
    </section>
  );
}

/** "Add a card": the card form, saved through a setup intent; a refusal stays in the dialog with what to do. */
function AddCardDialog({ onClose }: { onClose: () => void }) {
  const { t } = useT(['payments', 'common', 'errors']);
  const save = useSaveCard();
  const confirmer = useRef<CardConfirmer | null>(null);
  const onReady = useCallback((c: CardConfirmer | null) => { confirmer.current = c; }, []);

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const form = confirmer.current;
    if (!form) return; // the card library has not loaded yet: the form shows its own message if it failed
    save.mutate(form, { onSuccess: () => { onClose(); toast.success(t('savedCards.saved')); } });
  }

  return (
    <Dialog open onClose={onClose} size="sm" title={t('savedCards.addTitle')} description={t('savedCards.addText')}>
      <form className="saved-cards__add" onSubmit={submit} aria-busy={save.isPending || undefined} noValidate>
        <CardEntry onReady={onReady} />
        {save.isError ? (
          <p className="field__error" role="alert">{paymentErrorText(t, save.error)} {t('savedCards.addFailedHint')}</p>
        ) : null}
        <div className="saved-cards__actions">
          <Button variant="secondary" onClick={onClose}>{t('common:actions.cancel')}</Button>
          <Button type="submit" busy={save.isPending}>{t('savedCards.save')}</Button>
        </div>
      </form>
    </Dialog>
  );
}
