import { adminIdParamsSchema, okResponseSchema } from '@cellport/shared/schemas/admin/common';
import {
  balanceAdjustmentRequestSchema, balanceAdjustmentResponseSchema, customerActionRequestSchema,
  customerDetailResponseSchema, customerResponseSchema, customersQuerySchema, customersResponseSchema,
} from '@cellport/shared/schemas/admin/customers';
import type { App } from '../../context.js';
import { actorOf, adminRateLimits, paging } from '../../lib/console-http.js';
import type { AccountsAdminService } from './accounts-admin.service.js';

/** The console's customers (under /api/v1/admin): search, one customer's picture, the operator's actions, audited. */
export function registerAccountsAdminRoutes(app: App, customers: AccountsAdminService): void {
  const read = adminRateLimits.read;
  const write = adminRateLimits.write;
  app.get('/customers', { config: read, schema: { querystring: customersQuerySchema, response: { 200: customersResponseSchema } } },
    async (request) => customers.search(request.query.q || undefined, paging(request.query)));
  app.get('/customers/:id', { config: read, schema: { params: adminIdParamsSchema, response: { 200: customerDetailResponseSchema } } },
    async (request) => customers.detail(request.params.id));

  const action = { params: adminIdParamsSchema, body: customerActionRequestSchema, response: { 200: customerResponseSchema } };
  app.post('/customers/:id/deactivate', { config: write, schema: action },
    async (request) => ({ customer: await customers.setActive(actorOf(request), request.params.id, false, request.body?.reason) }));
  app.post('/customers/:id/reactivate', { config: write, schema: action },
    async (request) => ({ customer: await customers.setActive(actorOf(request), request.params.id, true, request.body?.reason) }));
  app.post('/customers/:id/reset-2fa', { config: write, schema: action },
    async (request) => ({ customer: await customers.resetTwoFactor(actorOf(request), request.params.id, request.body?.reason) }));
  app.post('/customers/:id/resend-confirmation',
    { config: write, schema: { params: adminIdParamsSchema, body: customerActionRequestSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await customers.resendConfirmation(actorOf(request), request.params.id);
      return { ok: true as const };
    });
  app.post('/customers/:id/balance-adjustments',
    { config: adminRateLimits.money, schema: { params: adminIdParamsSchema, body: balanceAdjustmentRequestSchema, response: { 200: balanceAdjustmentResponseSchema } } },
    async (request) => customers.adjustBalance(actorOf(request), request.params.id, request.body));
}
