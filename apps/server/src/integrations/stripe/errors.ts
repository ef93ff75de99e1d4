/**
 * A refusal or failure reported by the card provider. `code` follows Stripe's error codes ('card_declined',
 * 'authentication_required', 'resource_missing', …) so routes can treat sandbox and Stripe alike; `message` is the
 * provider's text, safe to show the customer for card errors (spec §8: the provider's message becomes the toast).
 */
export class CardProviderError extends Error {
  override readonly name = 'CardProviderError';
  constructor(
    readonly code: string,
    message: string,
    readonly details: { declineCode?: string; paymentIntentId?: string; httpStatus?: number } = {},
  ) {
    super(message);
  }

  /** True when the customer's card was refused (as opposed to our request or the provider being wrong or down). */
  get isCardError(): boolean {
    return this.code === 'card_declined' || this.code === 'incorrect_number' || this.code === 'expired_card'
      || this.code === 'incorrect_cvc' || this.code === 'authentication_required' || this.code === 'insufficient_funds';
  }
}

/** A webhook delivery whose signature does not prove it came from Stripe: answer 400 and credit nothing. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
  constructor(message: string) {
    super(message);
  }
}
