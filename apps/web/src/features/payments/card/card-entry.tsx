import { useSettings } from '../../../store/settings';
import type { CardConfirmer } from './card-confirmer';
import { SandboxCardForm } from './sandbox-card-form';
import { StripeCardForm } from './stripe-card-form';

/** The card entry form the server's settings call for: Stripe's Card Element with a key, the sandbox form without. */
export function CardEntry({ onReady }: { onReady: (c: CardConfirmer | null) => void }) {
  const card = useSettings().card;
  return card?.provider === 'stripe' && card.publishableKey
    ? <StripeCardForm publishableKey={card.publishableKey} onReady={onReady} />
    : <SandboxCardForm onReady={onReady} />;
}
