/**
 * What a card entry form gives the card modal: confirm the card payment behind `clientSecret` with the billing
 * e-mail. It resolves when the provider reports success and throws an Error with the provider's message otherwise.
 */
export interface CardConfirmer {
  confirm: (clientSecret: string, email: string) => Promise<void>;
}
