import { ERRORS } from '@cellport/shared';
import { CardProviderError } from '../../integrations/stripe/errors.js';
import { SandboxCardProvider } from '../../integrations/stripe/sandbox-card-provider.js';
import { AppError } from '../../lib/app-error.js';
import type { PaymentsRepository } from './payments.repository.js';
import type { PaymentsRuntime } from './payments-runtime.js';

/** Provider refusals → the customer's toast (spec §8: the provider's message); our own failures → 502 without details. */
export function cardError(err: unknown): never {
  if (err instanceof CardProviderError) {
    if (err.isCardError) throw new AppError('CARD_DECLINED', 402, err.message || ERRORS.CARD_DECLINED);
    if (err.code === 'resource_missing' || err.code === 'not_found') throw new AppError('CARD_NOT_FOUND');
    throw new AppError('CARD_PROVIDER_ERROR');
  }
  throw err;
}

export interface CardCustomer { id: string; email: string; name: string }

/** The card provider of this app, and each customer's account with it (created on first use, kept on the payment account). */
export class CardCustomers {
  constructor(private readonly accounts: PaymentsRepository, private readonly rt: PaymentsRuntime) {}

  /** The card provider; PAYMENT_METHOD_DISABLED when cards are off. */
  provider(): NonNullable<PaymentsRuntime['card']> {
    if (!this.rt.card) throw new AppError('PAYMENT_METHOD_DISABLED');
    return this.rt.card;
  }

  get enabled(): boolean {
    return this.rt.card !== null;
  }

  /** The offline sandbox, when it is the card provider (it needs our jobs to keep a subscription's schedule). */
  sandbox(): SandboxCardProvider | null {
    return this.rt.card instanceof SandboxCardProvider ? this.rt.card : null;
  }

  async ensure(userId: string): Promise<CardCustomer> {
    await this.accounts.addressIndex(userId); // makes sure the payment_accounts row exists
    const user = await this.accounts.cardHolder(userId);
    let id = user.card_customer_id;
    if (!id) {
      id = await this.provider().ensureCustomer({ email: user.email, name: user.name, userId }).catch(cardError);
      await this.accounts.setCardCustomer(userId, id);
    }
    return { id, email: user.email, name: user.name };
  }
}
