import {
  activeCryptoPaymentResponseSchema, cryptoPendingRequestSchema, cryptoPendingResponseSchema, dollarsToMicro,
} from '@cellport/shared/schemas/payments';
import type { App, AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { conditionalPoll } from '../../lib/poll-versions.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { requestLanguage } from '../../lib/request-language.js';
import type { CryptoPayments } from './crypto-payments.js';
import type { PaymentRateLimit } from '../../lib/payment-rate-limit.js';

/** POST /api/v1/payment/crypto/pending and GET /api/v1/pending-crypto-payment-active. */
export function registerCryptoRoutes(app: App, ctx: AppContext, deps: { crypto: CryptoPayments; limited: PaymentRateLimit }): void {
  const { crypto, limited } = deps;

  app.post('/api/v1/payment/crypto/pending',
    { onRequest: requireUser, config: limited, schema: { body: cryptoPendingRequestSchema, response: { 200: cryptoPendingResponseSchema } } },
    async (request) => {
      const topUp = request.body.amount === undefined || request.body.amount === null ? null : dollarsToMicro(request.body.amount);
      if (request.body.amount != null && topUp === null) throw new AppError('AMOUNT_INVALID');
      const payment = await crypto.createPending(currentUser(request).userId, request.body.coin, request.body, topUp, requestLanguage(request));
      return { error: null, data: payment };
    });

  // Polled every 5 s by every open dashboard. The ETag is the customer's 'pendingCrypto' poll version, which every
  // write that changes this answer bumps in its transaction (announcePendingCrypto): an unchanged poll with
  // If-None-Match is answered 304 from memory without touching the database.
  app.get('/api/v1/pending-crypto-payment-active',
    { onRequest: requireUser, schema: { response: { 200: activeCryptoPaymentResponseSchema } } },
    async (request, reply) => {
      const { userId } = currentUser(request);
      // The version is read before the row, so the ETag sent is never newer than the body it goes with.
      const version = await conditionalPoll(request, reply, ctx.pollVersions, 'pendingCrypto', userId);
      if (version === null) return reply;
      return { data: await crypto.active(userId) };
    });
}
