import { accountResponseSchema } from '@cellport/shared/schemas/catalog';
import type { App, AppContext } from '../../context.js';
import { currentUser, requireUser } from '../../plugins/session.js';
import { LedgerService } from './ledger.service.js';

/** GET /api/v1/account: the customer's balances (deposit addresses arrive with the payments issue). */
export function registerLedger(app: App, ctx: AppContext): void {
  const ledger = new LedgerService(ctx.db);
  app.get('/api/v1/account', { preHandler: requireUser, schema: { response: { 200: accountResponseSchema } } },
    async (request, reply) => {
      const b = await ledger.balances(currentUser(request).userId);
      reply.header('cache-control', 'no-store');
      return { btc: { balance: b.btc.toString(), address: null }, usdt: { balance: b.usdt.toString(), address: null } };
    });
}
