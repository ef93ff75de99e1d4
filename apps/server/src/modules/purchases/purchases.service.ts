import { randomUUID } from 'node:crypto';
import type { Language } from '@cellport/shared';
import type { BuyRequest, Payment, PurchaseResponse, RenewRequest } from '@cellport/shared/schemas/catalog';
import type { Tx } from '../../db/database.js';
import { buyPorts, type PaidWith } from './buy-ports.js';
import { claimIdempotencyKey, storeIdempotentResponse } from './idempotency.js';
import { toApiPayment } from './payment-view.js';
import type { PurchaseDeps } from './purchase-deps.js';
import { renewPorts } from './renew-ports.js';

export type { PaidWith } from './buy-ports.js';
export type { PurchaseDeps } from './purchase-deps.js';
export interface PurchaseOptions {
  idempotencyKey?: string | undefined; lng: Language;
  /** Runs in the purchase's transaction once its payment is written (not on a replay); throwing undoes it all. */
  afterCharge?: ((tx: Tx, paymentId: string) => Promise<void>) | undefined;
}

/**
 * Buying and renewing ports from the account balance (buy-ports.ts, renew-ports.ts). Each call is one transaction:
 * the stock is locked, the balance debited conditionally, the payment, ports, ledger entry, coupon use, jobs and
 * notification written — or, on any error, nothing at all. Replays with the same Idempotency-Key get the first answer.
 */
export class PurchasesService {
  constructor(private readonly deps: PurchaseDeps) {}

  async buy(userId: string, req: BuyRequest, options: PurchaseOptions): Promise<PurchaseResponse> {
    const { repo } = this.deps;
    return repo.transaction(async (tx) => {
      const idem = await claimIdempotencyKey(repo, tx, userId, 'buy', req, options.idempotencyKey);
      if (idem.replay) return idem.replay;
      const response = await this.buyWithin(tx, userId, req, options.lng);
      await options.afterCharge?.(tx, response.data.payment._id);
      await storeIdempotentResponse(repo, tx, userId, options.idempotencyKey, response);
      return response;
    });
  }

  async renew(userId: string, req: RenewRequest, options: PurchaseOptions): Promise<PurchaseResponse> {
    const { repo } = this.deps;
    return repo.transaction(async (tx) => {
      const idem = await claimIdempotencyKey(repo, tx, userId, 'renew', req, options.idempotencyKey);
      if (idem.replay) return idem.replay;
      const response = await this.renewWithin(tx, userId, req, options.lng, randomUUID());
      await options.afterCharge?.(tx, response.data.payment._id);
      await storeIdempotentResponse(repo, tx, userId, options.idempotencyKey, response);
      return response;
    });
  }

  /** One purchase inside the caller's transaction (also used to fulfil an order paid by card, crypto or PayPal). */
  buyWithin(tx: Tx, userId: string, req: BuyRequest, lng: Language, paid: PaidWith = {}): Promise<PurchaseResponse> {
    return buyPorts(this.deps, tx, userId, req, lng, paid);
  }

  /** Also used by the auto-renew job (with its own payment id, so the job's retry books nothing twice). */
  renewWithin(tx: Tx, userId: string, req: RenewRequest, lng: Language, paymentId: string, kind = 'renewal', provider = 'balance'): Promise<PurchaseResponse> {
    return renewPorts(this.deps, tx, userId, req, lng, paymentId, kind, provider);
  }

  /** The customer's payments, newest first (the last 500), described in the reader's language when given. */
  async history(userId: string, lng?: Language): Promise<Payment[]> {
    const rows = await this.deps.repo.payments(userId);
    return rows.map((r) => toApiPayment(r.payment, r.ports, lng));
  }
}
