import { accountResponseSchema } from '@cellport/shared/schemas/catalog';
import type { App, AppContext } from '../../context.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { CUSTOMER_API_SECURITY } from '../openapi/index.js';
import type { LedgerService } from './ledger.service.js';

/** Where a customer sends coins to top up (payments' crypto deposits answer it). */
export interface DepositAddresses { depositAddresses(userId: string): Promise<{ btc: string; usdt: string }> }

/** GET /api/v1/account: the customer's balances and deposit addresses; an API key may read it too (scripts check funds). */
export function registerLedger(app: App, ctx: AppContext, { ledger, cryptoPayments }: { ledger: LedgerService; cryptoPayments: DepositAddresses }): void {
  app.get('/api/v1/account', { onRequest: requireUser, config: { apiKey: true }, schema: { tags: ['account'], security: CUSTOMER_API_SECURITY, response: { 200: accountResponseSchema } } },
    async (request, reply) => {
      const userId = currentUser(request).userId;
      const [b, addresses] = await Promise.all([ledger.balances(userId), cryptoPayments.depositAddresses(userId)]);
      reply.header('cache-control', 'no-store');
      return { btc: { balance: b.btc.toString(), address: addresses.btc }, usdt: { balance: b.usdt.toString(), address: addresses.usdt } };
    });
}
