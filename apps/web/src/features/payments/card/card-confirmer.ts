/**
 * What a card entry form gives the card modal and the add-card dialog. `confirm` pays the card payment behind
 * `clientSecret` with the billing e-mail; `save` saves the card through the setup intent behind `clientSecret`.
 * Both resolve when the provider reports success and throw an Error with the provider's message otherwise.
 */
export interface CardConfirmer {
  confirm: (clientSecret: string, email: string) => Promise<void>;
  save: (clientSecret: string) => Promise<void>;
}
