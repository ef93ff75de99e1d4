import { buildCheckoutForm, type CheckoutForm } from './checkout-form.js';
import { checkIpn, type IpnOutcome } from './check-ipn.js';
import { verifyIpn, type IpnVerification } from './ipn-verifier.js';
import { parseIpnBody } from './parse-ipn.js';
import type { PayPalSettings } from './paypal-settings.js';
import { sandboxComplete } from './sandbox-ipn.js';

/** The PayPal functions bound to the running settings (config.paypal), so callers pass only the payment. */
export class PayPalGateway {
  constructor(readonly settings: PayPalSettings) {}

  get enabled(): boolean {
    return this.settings.mode !== 'off';
  }

  /**
   * The checkout form for a pending payment; `origin` is our public URL (config.publicUrl). `receiverEmail` is the
   * effective receiver when the operator overrides the configured one.
   */
  /**
   * The checkout form; PayPal sends the buyer back to /thank-you-for-order?order=<orderId>, so that page can show
   * this order's true state (credited, still being confirmed, or failed).
   */
  checkoutForm(input: { itemName: string; amountCents: number; custom: string; orderId: string; origin: string; notifyPath: string; receiverEmail?: string }): CheckoutForm {
    if (this.settings.mode === 'off') throw new Error('PayPal is not enabled');
    return buildCheckoutForm({
      business: input.receiverEmail ?? this.settings.receiverEmail,
      itemName: input.itemName,
      amountCents: input.amountCents,
      custom: input.custom,
      returnUrl: new URL(`/thank-you-for-order?order=${encodeURIComponent(input.orderId)}`, input.origin).toString(),
      notifyUrl: new URL(input.notifyPath, input.origin).toString(),
      mode: this.settings.mode,
    });
  }

  /** Validates the raw IPN body with PayPal; throws IpnVerificationError when PayPal cannot be asked. */
  verify(rawBody: string | Buffer): Promise<IpnVerification> {
    return verifyIpn(rawBody, { verifyUrl: this.settings.ipnVerifyUrl });
  }

  parse(rawBody: string | Buffer): Record<string, string> | null {
    return parseIpnBody(rawBody);
  }

  /** The decision for a verified (or not) IPN against the pending payment's recorded amount in cents and our receiver. */
  check(verification: IpnVerification, fields: Record<string, string>, recordedAmountCents: number, receiverEmail = this.settings.receiverEmail): IpnOutcome {
    return checkIpn(verification, fields, { receiverEmail, amountCents: recordedAmountCents, currency: 'USD' });
  }

  /** Offline completion in sandbox mode (throws otherwise). */
  simulate(pending: { custom: string; amountCents: number }): IpnOutcome {
    return sandboxComplete(this.settings, pending);
  }
}
