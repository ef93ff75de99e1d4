import { ERRORS } from '@cellport/shared';
import type { SavedCard } from '@cellport/shared/schemas/payments';
import { CardProviderError } from '../../integrations/stripe/errors.js';
import { SandboxCardProvider } from '../../integrations/stripe/sandbox-card-provider.js';
import { AppError, notFound } from '../../lib/app-error.js';
import { cardError, type CardCustomers } from './card-customers.js';
import type { PaymentsRuntime } from './payments-runtime.js';

/** The customer's saved cards: a setup intent to add one, the list, removal, and the sandbox's stand-in for confirmSetup. */
export class SavedCards {
  constructor(private readonly customers: CardCustomers, private readonly rt: PaymentsRuntime) {}

  async setupIntent(userId: string): Promise<{ clientSecret: string }> {
    const cus = await this.customers.ensure(userId);
    const setup = await this.customers.provider().createSetupIntent(cus.id).catch(cardError);
    return { clientSecret: setup.clientSecret };
  }

  /** None while cards are off. */
  async list(userId: string): Promise<SavedCard[]> {
    if (!this.customers.enabled) return [];
    const cus = await this.customers.ensure(userId);
    return this.customers.provider().listSavedCards(cus.id).catch(cardError);
  }

  async remove(userId: string, paymentMethodId: string): Promise<void> {
    const cus = await this.customers.ensure(userId);
    await this.customers.provider().detachPaymentMethod(cus.id, paymentMethodId).catch(cardError);
  }

  /** Saves a card through a setup intent of this customer (sandbox only). */
  async sandboxConfirmSetup(userId: string, input: { clientSecret: string; cardNumber: string; expiry: string }): Promise<SavedCard> {
    const card = this.rt.card;
    if (!(card instanceof SandboxCardProvider)) throw notFound();
    const cus = await this.customers.ensure(userId);
    return card.confirmSetup(input.clientSecret, input.cardNumber, cus.id, input.expiry).catch((err: unknown) => {
      if (err instanceof CardProviderError && err.code === 'resource_missing') throw notFound();
      if (err instanceof CardProviderError) throw new AppError('CARD_DECLINED', 402, ERRORS.CARD_DECLINED);
      throw err;
    });
  }
}
